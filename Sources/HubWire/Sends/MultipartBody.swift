/// One part of a multipart body: its headers (names lower-cased) and its content bytes.
struct MultipartPart: Equatable {
    var headers: [String: String]
    var content: [UInt8]
}

/// A lenient RFC 2046 multipart reader: CRLF or bare LF line ends, a preamble before the first boundary line
/// (.NET sends a leading CRLF), padding after boundary lines, an epilogue after the closing one.
enum MultipartBody {
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let dash = UInt8(ascii: "-")

    /// The parts between `--boundary` lines, up to the closing `--boundary--`.
    static func parts(of body: [UInt8], boundary: String) throws(DirectBatchError) -> [MultipartPart] {
        let delimiter = Array("--\(boundary)".utf8)
        guard var position = nextDelimiter(delimiter, in: body, from: 0) else {
            throw DirectBatchError(
                message: "The body has no boundary line --\(boundary), the boundary the "
                    + "Content-Type header names.")
        }
        var parts: [MultipartPart] = []
        while true {
            var cursor = position + delimiter.count
            if body[cursor...].starts(with: [dash, dash]) { return parts }
            while cursor < body.count, body[cursor] == UInt8(ascii: " ") || body[cursor] == UInt8(ascii: "\t") {
                cursor += 1
            }
            if body[cursor...].starts(with: [carriageReturn, lineFeed]) {
                cursor += 2
            } else if cursor < body.count, body[cursor] == lineFeed {
                cursor += 1
            } else if cursor == body.count {
                throw DirectBatchError(message: "The body ends without the closing boundary line --\(boundary)--.")
            } else {
                throw DirectBatchError(message: "A boundary line --\(boundary) is followed by unexpected text.")
            }
            let partNumber = parts.count + 1
            let (headers, contentStart) = try readHeaders(body, from: cursor, part: partNumber)
            guard let next = nextDelimiter(delimiter, in: body, from: contentStart) else {
                throw DirectBatchError(message: "The body ends without the closing boundary line --\(boundary)--.")
            }
            // The line break before a boundary line belongs to the boundary, not to the content.
            var contentEnd = next
            if contentEnd > contentStart, body[contentEnd - 1] == lineFeed {
                contentEnd -= 1
                if contentEnd > contentStart, body[contentEnd - 1] == carriageReturn { contentEnd -= 1 }
            }
            parts.append(MultipartPart(headers: headers, content: Array(body[contentStart..<contentEnd])))
            position = next
        }
    }

    /// Header lines up to the mandatory empty line; returns them and where the content starts.
    private static func readHeaders(
        _ body: [UInt8], from start: Int,
        part: Int
    ) throws(DirectBatchError) -> ([String: String], Int) {
        var headers: [String: String] = [:]
        var lastName: String?
        var cursor = start
        while true {
            guard let lineEnd = body[cursor...].firstIndex(of: lineFeed) else {
                throw DirectBatchError(
                    message: "Part \(part) has no empty line after its headers; "
                        + "an empty line must separate a part's headers from its content.")
            }
            var line = body[cursor..<lineEnd]
            if line.last == carriageReturn { line = line.dropLast() }
            cursor = lineEnd + 1
            if line.isEmpty { return (headers, cursor) }
            let text = String(decoding: line, as: UTF8.self)
            if let lastName, text.first == " " || text.first == "\t" {
                headers[lastName, default: ""] += " " + text.trimmingWhitespace()
                continue
            }
            guard let colon = text.firstIndex(of: ":") else {
                throw DirectBatchError(
                    message: "Part \(part) has a header line without ':'; "
                        + "is the empty line between headers and content missing?")
            }
            let name = text[..<colon].trimmingWhitespace().lowercased()
            headers[name] = text[text.index(after: colon)...].trimmingWhitespace()
            lastName = name
        }
    }

    /// The next `--boundary` at the start of a line, followed by `--`, padding, a line break or the end.
    private static func nextDelimiter(_ delimiter: [UInt8], in body: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + delimiter.count <= body.count {
            let atLineStart = index == 0 || body[index - 1] == lineFeed
            if atLineStart, body[index...].starts(with: delimiter) {
                let after = index + delimiter.count
                if after == body.count { return index }
                switch body[after] {
                case dash where after + 1 < body.count && body[after + 1] == dash: return index
                case carriageReturn, lineFeed, UInt8(ascii: " "), UInt8(ascii: "\t"): return index
                default: break
                }
            }
            guard let lineEnd = body[index...].firstIndex(of: lineFeed) else { return nil }
            index = lineEnd + 1
        }
        return nil
    }
}
