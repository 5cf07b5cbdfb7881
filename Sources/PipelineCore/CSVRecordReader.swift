/// Reads CSV records from a line reader, joining the lines of quoted fields that span several, within the
/// same byte limit as a line.
public final class CSVRecordReader {
    /// One record, or why a record could not be read; `line` is where the record starts.
    public enum Record: Equatable {
        case fields([String], line: Int)
        case problem(String, line: Int)
    }

    private let lines: LineReader
    private let maxBytes: Int

    public init(lines: LineReader, maxBytes: Int) {
        self.lines = lines
        self.maxBytes = maxBytes
    }

    /// The next record, skipping blank lines; nil at the end of the file.
    public func next() throws(TextFile.Failure) -> Record? {
        while let line = try lines.next() {
            switch line {
            case .tooLong(let number):
                return .problem("the line is longer than \(maxBytes) bytes", line: number)
            case .invalidUTF8(let number):
                return .problem("the line is not valid UTF-8", line: number)
            case .text(let text, let number):
                if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
                return try record(startingWith: text, at: number)
            }
        }
        return nil
    }

    private func record(startingWith first: String, at number: Int) throws(TextFile.Failure) -> Record {
        var text = first
        while true {
            switch CSVLine.parse(text) {
            case .fields(let fields): return .fields(fields, line: number)
            case .problem(let message): return .problem(message, line: number)
            case .needsMore: break
            }
            guard let next = try lines.next() else {
                return .problem("a quoted field is not closed before the end of the file", line: number)
            }
            guard case .text(let more, _) = next, text.utf8.count + more.utf8.count < maxBytes else {
                return .problem("a quoted field is not closed within \(maxBytes) bytes", line: number)
            }
            text += "\n" + more
        }
    }
}
