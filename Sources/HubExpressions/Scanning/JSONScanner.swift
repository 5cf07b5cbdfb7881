/// A strict RFC 8259 JSON scanner over UTF-8 bytes that records where every string is.
///
/// It is iterative (an explicit container stack) so arbitrarily deep input cannot overflow the
/// call stack, and it stops at the first error with its byte offset.
struct JSONScanner {
    private enum Container {
        case object(Int)
        case array
    }

    let bytes: [UInt8]
    var index = 0
    private var objectCount = 0
    var strings: [JSONStringToken] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Scans one complete JSON text and returns every string token in source order.
    static func scan(_ bytes: [UInt8]) throws(ScanError) -> [JSONStringToken] {
        var scanner = JSONScanner(bytes)
        try scanner.scanDocument()
        return scanner.strings
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count, ASCII.isWhitespace(bytes[index]) { index += 1 }
    }

    private func failure(_ message: String, at offset: Int? = nil, hint: String? = nil) -> ScanError {
        ScanError(message, at: offset ?? index, hint: hint)
    }

    private func found() -> String { ASCII.describeCharacter(at: index, in: bytes) }

    mutating func scanDocument() throws(ScanError) {
        var stack: [Container] = []
        skipWhitespace()
        if index == bytes.count { throw failure("expected a JSON value but the text is empty") }
        var needValue = true
        while true {
            skipWhitespace()
            if needValue {
                needValue = try scanValueStart(&stack)
                continue
            }
            guard let top = stack.last else { break }
            let (close, closeName): (UInt8, String) = {
                if case .object = top { return (ASCII.closeBrace, "}") }
                return (ASCII.closeBracket, "]")
            }()
            guard let b = peek else { throw failure("expected ',' or '\(closeName)' but the text ended") }
            if b == close {
                index += 1
                stack.removeLast()
            } else if b == ASCII.comma {
                let comma = index
                index += 1
                skipWhitespace()
                if peek == close {
                    throw failure(
                        "trailing ',' before '\(closeName)' is not allowed in JSON", at: comma,
                        hint: "remove the ','")
                }
                if case .object(let id) = top { try scanKey(objectID: id) }
                needValue = true
            } else {
                throw failure("expected ',' or '\(closeName)' but found \(found())")
            }
        }
        if index < bytes.count {
            throw failure("unexpected \(found()) after the end of the JSON value")
        }
    }

    /// Scans the start of a value. Returns `true` when another value must follow immediately
    /// (a non-empty container was opened), `false` when a complete value was consumed.
    private mutating func scanValueStart(_ stack: inout [Container]) throws(ScanError) -> Bool {
        guard let b = peek else { throw failure("expected a value but the text ended") }
        switch b {
        case ASCII.openBrace:
            index += 1
            let id = objectCount
            objectCount += 1
            skipWhitespace()
            if peek == ASCII.closeBrace {
                index += 1
                return false
            }
            stack.append(.object(id))
            try scanKey(objectID: id)
            return true
        case ASCII.openBracket:
            index += 1
            skipWhitespace()
            if peek == ASCII.closeBracket {
                index += 1
                return false
            }
            stack.append(.array)
            return true
        case ASCII.quote:
            try scanString(isKey: false, objectID: -1)
        case ASCII.minus, ASCII.zero...ASCII.nine:
            try scanNumber()
        case 0x74: try scanWord("true")
        case 0x66: try scanWord("false")
        case 0x6E: try scanWord("null")
        case ASCII.apostrophe:
            throw failure("expected a value but found \(found())", hint: "JSON strings use double quotes")
        default:
            throw failure("expected a value but found \(found())")
        }
        return false
    }

    /// Scans `"key"` and the `:` after it, leaving the index at the value.
    private mutating func scanKey(objectID: Int) throws(ScanError) {
        skipWhitespace()
        guard peek == ASCII.quote else {
            if peek == nil { throw failure("expected a key in double quotes but the text ended") }
            throw failure(
                "expected a key in double quotes but found \(found())",
                hint: "JSON object keys must be double-quoted strings")
        }
        try scanString(isKey: true, objectID: objectID)
        skipWhitespace()
        guard peek == ASCII.colon else {
            if peek == nil { throw failure("expected ':' after the key but the text ended") }
            throw failure("expected ':' after the key but found \(found())")
        }
        index += 1
    }

    private mutating func scanWord(_ word: StaticString) throws(ScanError) {
        let start = index
        let expected = word.withUTF8Buffer { Array($0) }
        for byte in expected {
            guard peek == byte else {
                throw failure("invalid literal; expected '\(word)'", at: start)
            }
            index += 1
        }
    }
}
