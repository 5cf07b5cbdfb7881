import Foundation
import PipelineCore

/// A query's SQL and where it is written (inline in the pipeline, or a `.sql` file), so an error the database reports
/// names the place to fix.
package struct QuerySQL: Sendable, Equatable {
    /// The statement.
    package let text: String
    /// The `.sql` file it was read from, as written (nil when inline).
    package let file: String?
    /// Where the `sql:` value is in the pipeline.
    package let location: SourceLocation

    /// The longest `.sql` file read.
    static let maxFileBytes = 1 << 20

    /// Creates the SQL directly (tests, programmatic use).
    package init(text: String, file: String? = nil, location: SourceLocation) {
        self.text = text
        self.file = file
        self.location = location
    }

    /// Where an error at character `offset` of the SQL is: `queries/digest.sql:3:7`, or the pipeline's
    /// `file:line:column` of `sql:` with the line and column inside the SQL.
    func locate(_ offset: Int?) -> String {
        let inside = offset.map { Self.lineAndColumn(text, offset: $0) }
        if let file {
            return inside.map { "\(file):\($0.line):\($0.column)" } ?? file
        }
        return "\(location) (sql\(inside.map { ", line \($0.line), column \($0.column)" } ?? ""))"
    }

    /// The 1-based line and column of a character offset.
    static func lineAndColumn(_ text: String, offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for character in text.prefix(max(0, offset)) {
            if character == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    /// Reads `sql:`: one word ending in `.sql` is a file (relative to the pipeline); anything else is the SQL.
    static func read(_ value: String, at node: ConfigNode, in context: BuildContext, options: OptionReader) -> QuerySQL? {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            options.error("'sql' is empty", at: node, hint: "one SELECT statement, or a .sql file")
            return nil
        }
        guard trimmed.lowercased().hasSuffix(".sql"), !trimmed.contains(where: \.isWhitespace) else {
            return QuerySQL(text: value, location: node.location)
        }
        let path = node.scalar.map(context.path(of:)) ?? context.path(trimmed)
        do {
            let text = try TextFile.read(path, limit: maxFileBytes)
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                options.error("the SQL file '\(trimmed)' is empty", at: node, hint: "write one SELECT statement in it")
                return nil
            }
            return QuerySQL(text: text, file: trimmed, location: node.location)
        } catch {
            options.error(error.message(what: "SQL file", name: trimmed), at: node, hint: "a path relative to the pipeline file")
            return nil
        }
    }
}
