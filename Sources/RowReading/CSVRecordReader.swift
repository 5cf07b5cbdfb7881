import PipelineCore

/// Reads CSV records from a line reader, joining the lines of quoted fields that span several, within the
/// same byte limit as a line.
///
/// A quote that opens and never closes properly would swallow every line up to the next stray quote into
/// one field, and the recipients on those lines would vanish inside one "malformed row". So a record that
/// spans several lines and does not come out whole (text after its closing quote, no closing quote before
/// the end of the file or the byte limit, or a field count other than the header's) is reported as a
/// problem at the line where the quote opened, naming the lines it would have swallowed, and those lines
/// are read again as records of their own. A multi-line record that does come out whole is RFC 4180's
/// quoted line break, reported with its line span.
public final class CSVRecordReader {
    /// One record, or why a record could not be read; `line` is where the record starts.
    public enum Record: Equatable {
        /// A record's fields, from `line` through `through` (the same line unless a quoted field spans lines).
        case fields([String], line: Int, through: Int)
        /// A malformed record at `line`.
        case problem(String, line: Int)
    }

    private let lines: LineReader
    private let maxBytes: Int
    /// Lines taken by a record that turned out malformed, to be read again (last first).
    private var replay: [LineReader.Line] = []
    /// The header's field count once it is known: a multi-line record with another count is not one.
    public var expectedFields: Int?

    /// Reads records from `lines`; a record longer than `maxBytes` is a problem.
    public init(lines: LineReader, maxBytes: Int) {
        self.lines = lines
        self.maxBytes = maxBytes
    }

    /// The next record, skipping blank lines; nil at the end of the file.
    public func next() throws(TextFile.Failure) -> Record? {
        while let line = try nextLine() {
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

    private func nextLine() throws(TextFile.Failure) -> LineReader.Line? {
        if let line = replay.popLast() { return line }
        return try lines.next()
    }

    private func record(startingWith first: String, at number: Int) throws(TextFile.Failure) -> Record {
        var text = first
        // The lines after the first, kept (within the byte limit) in case they must be read again.
        var taken: [LineReader.Line] = []
        var lastLine = number
        while true {
            switch CSVLine.parse(text) {
            case .fields(let fields):
                guard !taken.isEmpty else { return .fields(fields, line: number, through: number) }
                if let expected = expectedFields, fields.count != expected {
                    return unclosed(
                        at: number, taken: taken,
                        why: "read as one record it has \(fields.count) fields; the header has \(expected)")
                }
                return .fields(fields, line: number, through: lastLine)
            case .problem(let message):
                guard !taken.isEmpty else { return .problem(message, line: number) }
                return unclosed(at: number, taken: taken, why: "read as one record, \(message)")
            case .needsMore:
                break
            }
            guard let next = try nextLine() else {
                guard !taken.isEmpty else {
                    return .problem(
                        "a quoted field opens here and is not closed before the end of the file; "
                            + "close the quote, or double a quote inside the field (\"\")", line: number)
                }
                return unclosed(at: number, taken: taken, why: "no closing quote before the end of the file")
            }
            taken.append(next)
            guard case .text(let more, let moreNumber) = next else {
                return unclosed(at: number, taken: taken, why: "a line inside it cannot be read")
            }
            guard text.utf8.count + more.utf8.count < maxBytes else {
                return unclosed(at: number, taken: taken, why: "no closing quote within \(maxBytes) bytes")
            }
            lastLine = moreNumber
            text += "\n" + more
        }
    }

    /// The record that opened at `number` is malformed: the lines it took are read again as records.
    private func unclosed(at number: Int, taken: [LineReader.Line], why: String) -> Record {
        replay.append(contentsOf: taken.reversed())
        let numbers = taken.map(\.number)
        let span = numbers.count == 1 ? "line \(numbers[0])" : "lines \(numbers[0])–\(numbers[numbers.count - 1])"
        return .problem(
            "a quoted field opens on this line and is not closed properly (\(why)); it would swallow \(span), "
                + "which are read as rows of their own; close the quote, or double a quote inside the field (\"\")",
            line: number)
    }
}

extension LineReader.Line {
    /// The line's number in the file.
    var number: Int {
        switch self {
        case .text(_, let number), .tooLong(let number), .invalidUTF8(let number): number
        }
    }
}
