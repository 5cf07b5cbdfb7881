import Foundation
import PipelineCore
import PostgresRunStore
import RunStore

/// The database a `query` reads: a SQLite file, or PostgreSQL at a `postgres://` URL.
package enum QueryDatabase: Sendable, Equatable {
    /// A SQLite file: the path to open, and how messages name it (from the current directory, as every path).
    case sqlite(path: String, shown: String)
    /// A PostgreSQL server (the run store's URL rules: sslmode, sslrootcert, connect_timeout, a password never shown).
    case postgres(PostgresLocation)

    /// How messages name it: the file as written, or the URL without its password.
    package var shown: String {
        switch self {
        case .sqlite(_, let shown): "'\(shown)'"
        case .postgres(let location): location.description
        }
    }

    /// What names it in the query's source digest: the file's full path, or the URL without its password (a new
    /// password is the same database).
    var identity: String {
        switch self {
        case .sqlite(let path, _): "sqlite \(path)"
        case .postgres(let location): "postgres \(location.description)"
        }
    }

    /// Reads `database:`: a `postgres://` (or `postgresql://`) URL, else a SQLite file that exists.
    static func read(_ value: String, at node: ConfigNode, in context: BuildContext, options: OptionReader)
        -> QueryDatabase?
    {
        let text = value.trimmingCharacters(in: .whitespaces)
        if PostgresLocation.isURL(text) {
            do {
                // The run's environment (`--env-file`, serve's settings), as every other value of the pipeline.
                return .postgres(try PostgresLocation(text, environment: context.document.environment))
            } catch {
                options.error(
                    "'database': \(error.message.replacingOccurrences(of: "run store", with: "database"))", at: node,
                    hint: "postgres://USER@HOST[:PORT]/DATABASE[?sslmode=verify-full]")
                return nil
            }
        }
        guard !text.isEmpty else {
            options.error("'database' is empty", at: node, hint: "a SQLite file, or a postgres:// URL")
            return nil
        }
        let path = node.scalar.map(context.path(of:)) ?? context.path(text)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            options.error(
                "the SQLite database '\(text)' does not exist\(isDirectory.boolValue ? " (it is a directory)" : "") (looked for \(path))",
                at: node,
                hint: "a path relative to the pipeline file, or a postgres:// URL")
            return nil
        }
        return .sqlite(path: path, shown: FilePath.shown(path))
    }
}
