import PipelineCore

/// Reads a file line by line with a bounded buffer: a line longer than the limit is reported and skipped,
/// never held whole. A UTF-8 byte-order mark is dropped and CRLF is read as LF.
public final class LineReader {
    /// One physical line.
    public enum Line: Equatable {
        /// The text, without its line end.
        case text(String, number: Int)
        /// Longer than the limit; skipped.
        case tooLong(number: Int)
        /// Not valid UTF-8; skipped.
        case invalidUTF8(number: Int)
    }

    private let file: ChunkedFile
    private let maxBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline resumes, so a long line is not rescanned per chunk.
    private var scanned = 0
    private var lineNumber = 0

    /// Reads `file`; lines over `maxBytes` bytes are reported as `tooLong`.
    public init(file: ChunkedFile, maxBytes: Int) {
        self.file = file
        self.maxBytes = maxBytes
    }

    /// The next line, or nil at the end of the file.
    public func next() throws(TextFile.Failure) -> Line? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                let bytes = buffer[start..<newline]
                start = newline + 1
                scanned = start
                guard bytes.count <= maxBytes else {
                    lineNumber += 1
                    return .tooLong(number: lineNumber)
                }
                return line(bytes)
            }
            scanned = buffer.count
            if buffer.count - start > maxBytes {
                lineNumber += 1
                let number = lineNumber
                try skipPastNewline()
                return .tooLong(number: number)
            }
            guard let chunk = try file.next() else {
                guard start < buffer.count else { return nil }
                let bytes = buffer[start...]
                start = buffer.count
                scanned = start
                return line(bytes)
            }
            append(chunk)
        }
    }

    private func line(_ bytes: ArraySlice<UInt8>) -> Line {
        lineNumber += 1
        var bytes = bytes
        if lineNumber == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .invalidUTF8(number: lineNumber) }
        return .text(text, number: lineNumber)
    }

    /// Drops the current over-long line, reading on until its newline or the end of the file.
    private func skipPastNewline() throws(TextFile.Failure) {
        buffer.removeAll(keepingCapacity: true)
        (start, scanned) = (0, 0)
        while let chunk = try file.next() {
            if let newline = chunk.firstIndex(of: 0x0A) {
                buffer = Array(chunk[(newline + 1)...])
                return
            }
        }
    }

    /// Appends a chunk, first dropping consumed bytes so the buffer stays near one line plus one chunk.
    private func append(_ chunk: [UInt8]) {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer += chunk
    }
}
