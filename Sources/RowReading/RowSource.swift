import PipelineCore

/// A `for-each:` input: CSV (RFC 4180, a header row naming the columns), JSON Lines, or a JSON array
/// of objects, chosen by extension. Rows are streamed, never loaded whole.
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

    /// Creates a source.
    public init(path: String, shown: String, format: Format) {
        self.path = path
        self.shown = shown
        self.format = format
    }

    /// The format for a path's extension, or nil.
    public static func format(of path: String) -> Format? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return Format(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// Opens the file; for CSV reads and checks the header. Throws a sentence naming the file.
    /// `digests: false` leaves each row's digest empty, for a pass that only checks the rows.
    public func open(digests: Bool = true) throws(RowSourceError) -> RowReader {
        do {
            return try RowReader(self, digests: digests)
        } catch let failure as TextFile.Failure {
            throw RowSourceError(failure.message(what: "for-each file", name: shown))
        } catch let error as RowSourceError {
            throw error
        } catch {
            throw RowSourceError("for-each file '\(shown)': \(error)")
        }
    }

    /// The CSV header's columns (nil for JSON formats, whose keys are known only row by row).
    public func columns() throws(RowSourceError) -> [String]? {
        try open().columns
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
