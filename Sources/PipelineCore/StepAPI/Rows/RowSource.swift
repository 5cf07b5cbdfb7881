/// Rows a step works through once each (its `for-each`): a CSV (RFC 4180, a header row naming the columns), JSON
/// Lines, or a JSON array of objects file, chosen by extension, or the JSON Lines an earlier step's rows were copied
/// to. The engine opens it before the step is built; the step streams it, never loading it whole.
public struct RowSource: Sendable, Equatable {
    /// The formats, chosen by extension.
    public enum Format: String, Sendable, CaseIterable {
        /// A header row, then one row per record.
        case csv
        /// One JSON object per line.
        case jsonl
        /// One JSON array of objects.
        case json
    }

    /// Longest row (line, CSV record or JSON element) read.
    public static let maxRowBytes = 1 << 20

    /// The path to open.
    public let path: String
    /// How messages show it (the reference as written when it came from one).
    public let shown: String
    /// The format.
    public let format: Format

    /// The columns every row has, when they are known before the rows are read; nil when only the rows say.
    public let columns: KnownColumns?

    /// Creates a source.
    public init(path: String, shown: String, format: Format, columns: KnownColumns? = nil) {
        self.path = path
        self.shown = shown
        self.format = format
        self.columns = columns
    }

    /// The format for a path's extension, or nil.
    public static func format(of path: String) -> Format? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return Format(rawValue: path[path.index(after: dot)...].lowercased())
    }
}

/// The columns of rows known before they are read, and where they come from (for messages).
public enum KnownColumns: Sendable, Equatable {
    /// A CSV file's header row.
    case header([String])
    /// The columns the step that hands the rows on declared (a SQLite query prepared, a plugin's declared columns);
    /// `step` names it in messages, e.g. `step 'users' (query)`.
    case declared([String], step: String)

    /// The columns.
    public var names: [String] {
        switch self {
        case .header(let names), .declared(let names, _): names
        }
    }
}

extension RowSource {
    /// Reports every column in `read` that the rows do not have, once each, with "did you mean" and the columns there
    /// are, at the `for-each` value; nothing when the columns are known only row by row (JSON rows are checked as they
    /// are read). A step that works once per row calls it with the columns it reads, whether or not it builds, so
    /// every problem shows at once.
    public func checkColumns(_ read: [String], reporting reader: OptionReader) {
        guard let columns else { return }
        let names = columns.names
        let known = Set(names.map { $0.lowercased() })
        var reported: Set<String> = []
        for column in read where !known.contains(column.lowercased()) && reported.insert(column.lowercased()).inserted {
            let (lacking, hint) =
                switch columns {
                case .header:
                    ("which the header of '\(shown)' does not have", "columns: \(names.joined(separator: ", "))")
                case .declared(_, let step):
                    ("which the rows of \(step) do not have", "its columns: \(names.joined(separator: ", "))")
                }
            reader.error(
                "the step reads column '\(column)', \(lacking)\(Suggestion.didYouMean(column, in: names))",
                at: reader.node(BatchOptions.forEach.asWritten()) ?? reader.node, hint: hint)
        }
    }
}

/// A `for-each:` file that cannot be used at all.
public struct RowSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the file (and line for a bad header).
    public let message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
