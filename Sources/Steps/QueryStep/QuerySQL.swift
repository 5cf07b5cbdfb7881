import Foundation
import PipelineCore

/// A query's SQL and where it is written (inline in the pipeline, or a `.sql` file), so an error the database reports
/// names the place to fix.
package struct QuerySQL: Sendable, Equatable {
    /// The statement.
    package let text: String
    /// The `.sql` file it was read from, as messages name it (the pipeline's folder put before it); nil when inline.
    package let file: String?
    /// Where the `sql:` value is in the pipeline.
    package let location: SourceLocation
    /// The pipeline's lines the inline SQL spans, by line number, to put an error inside it on its own line.
    let source: [Int: String]

    /// The longest `.sql` file read.
    static let maxFileBytes = 1 << 20

    /// Creates the SQL directly (tests, programmatic use).
    package init(text: String, file: String? = nil, location: SourceLocation) {
        self.init(text: text, file: file, location: location, source: [:])
    }

    private init(text: String, file: String?, location: SourceLocation, source: [Int: String]) {
        self.text = text
        self.file = file
        self.location = location
        self.source = source
    }

    /// Where the character at `offset` of the SQL is in a file: the `.sql` file's line and column, or the pipeline's
    /// line of it (a one-line value, or a `|` block); nil when it cannot be placed.
    func place(_ offset: Int) -> SourceLocation? {
        let inside = Self.lineAndColumn(text, offset: offset)
        if let file { return SourceLocation(file: file, line: inside.line, column: inside.column) }
        return ScalarPlace.location(line: inside.line, column: inside.column, text: text, at: location) {
            source[$0].map { Substring($0) }
        }
    }

    /// Where an error at character `offset` of the SQL is: `pipelines/queries/digest.sql:3:7`, the pipeline's line
    /// of it, or the pipeline's `file:line:column` of `sql:` with the line and column inside the SQL.
    func locate(_ offset: Int?) -> String {
        if let offset, let place = place(offset) { return place.description }
        if let file { return file }
        let inside = offset.map { Self.lineAndColumn(text, offset: $0) }
        return "\(location) (sql\(inside.map { ", line \($0.line), column \($0.column)" } ?? ""))"
    }

    /// The 1-based line and column of a character offset.
    static func lineAndColumn(_ text: String, offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for character in text.prefix(max(0, offset)) {
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    /// Reads `sql:`: one word ending in `.sql` is a file (relative to the pipeline); anything else is the SQL.
    static func read(_ value: String, at node: ConfigNode, in context: BuildContext, options: OptionReader) -> QuerySQL?
    {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            options.error("'sql' is empty", at: node, hint: "one SELECT statement, or a .sql file")
            return nil
        }
        guard trimmed.lowercased().hasSuffix(".sql"), !trimmed.contains(where: \.isWhitespace) else {
            // A reference in the SQL moves what follows it, so such SQL is placed by the scalar alone.
            let spanned =
                node.scalar?.hasReferences == false
                ? value.split(separator: "\n", omittingEmptySubsequences: false).count + 1 : 0
            var source: [Int: String] = [:]
            for line in node.location.line..<(node.location.line + spanned) {
                if let text = options.diagnostics.sourceLine(line, of: node.location.file) {
                    source[line] = String(text)
                }
            }
            return QuerySQL(text: value, file: nil, location: node.location, source: source)
        }
        let path = node.scalar.map(context.path(of:)) ?? context.path(trimmed)
        do {
            let text = try TextFile.read(path, limit: maxFileBytes)
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                options.error("the SQL file '\(trimmed)' is empty", at: node, hint: "write one SELECT statement in it")
                return nil
            }
            options.diagnostics.register(source: text, for: path)
            return QuerySQL(text: text, file: FilePath.shown(path), location: node.location, source: [:])
        } catch {
            options.error(
                error.message(what: "SQL file", name: trimmed), at: node, hint: "a path relative to the pipeline file")
            return nil
        }
    }
}
