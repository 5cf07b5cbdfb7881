import PipelineCore

/// A streamed input file as raw records, whatever its format: the bytes of one JSON object (a JSON Lines
/// line or a JSON array element), the fields of one CSV record, or why a record cannot be read.
///
/// What a record means is the reader's business (`RowReader` makes template properties of it, `register`
/// makes a device); what is shared is the format: a line longer than the limit or not valid UTF-8, a JSON
/// array that is not one, a CSV record whose quote never closes. Blank JSON Lines lines are skipped. A CSV
/// file's header is its first `fields` record.
public final class RecordStream {
    /// One record, where it starts in the file.
    public enum Record: Equatable {
        /// One JSON value's bytes, on `line`.
        case json([UInt8], line: Int)
        /// One CSV record's fields, on lines `line` through `through`.
        case fields([String], line: Int, through: Int)
        /// A record that cannot be read; reading goes on with the next.
        case problem(String, line: Int)
    }

    private enum Reader {
        case lines(LineReader)
        case array(JSONArraySplitter)
        case csv(CSVRecordReader)
    }

    private let reader: Reader
    private let maxBytes: Int

    /// Opens `path` as `format`, reading records of at most `maxBytes`; `elements` names a JSON array's
    /// elements in messages (`rows`, `devices`).
    public init(path: String, format: RowSource.Format, maxBytes: Int, elements: String) throws(TextFile.Failure) {
        let file = try ChunkedFile(path: path)
        self.maxBytes = maxBytes
        switch format {
        case .jsonl: reader = .lines(LineReader(file: file, maxBytes: maxBytes))
        case .json: reader = .array(JSONArraySplitter(file: file, maxBytes: maxBytes, elements: elements))
        case .csv: reader = .csv(CSVRecordReader(lines: LineReader(file: file, maxBytes: maxBytes), maxBytes: maxBytes))
        }
    }

    /// For CSV: the number of fields every record should have (the header's), so a quote that never closes
    /// is found where it opens instead of swallowing the rest of the file.
    public func expect(fields count: Int) {
        if case .csv(let records) = reader { records.expectedFields = count }
    }

    /// The next record; nil at the end of the file. Throws only when the file cannot be read.
    public func next() throws(TextFile.Failure) -> Record? {
        switch reader {
        case .csv(let records):
            switch try records.next() {
            case nil: return nil
            case .problem(let message, let line)?: return .problem(message, line: line)
            case .fields(let fields, let line, let through)?: return .fields(fields, line: line, through: through)
            }
        case .lines(let lines):
            while let line = try lines.next() {
                switch line {
                case .tooLong(let at): return .problem("the line is longer than \(maxBytes) bytes", line: at)
                case .invalidUTF8(let at): return .problem("the line is not valid UTF-8", line: at)
                case .text(let text, let at):
                    if text.allSatisfy(\.isWhitespace) { continue }
                    return .json(Array(text.utf8), line: at)
                }
            }
            return nil
        case .array(let splitter):
            switch try splitter.next() {
            case nil: return nil
            case .problem(let message, let line)?: return .problem(message, line: line)
            case .bytes(let bytes, let line)?: return .json(bytes, line: line)
            }
        }
    }
}
