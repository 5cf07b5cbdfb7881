extension JSONScanner {
    mutating func scanString(isKey: Bool, objectID: Int) throws(ScanError) {
        let open = index
        index += 1
        var hasEscapes = false
        while index < bytes.count {
            let b = bytes[index]
            if b == ASCII.quote {
                strings.append(
                    JSONStringToken(
                        start: open + 1, end: index, isKey: isKey,
                        hasEscapes: hasEscapes, objectID: objectID))
                index += 1
                return
            }
            if b == ASCII.backslash {
                hasEscapes = true
                try scanEscape()
                continue
            }
            if b < 0x20 {
                throw ScanError(
                    "control character \(ASCII.describe(b)) must be escaped in a JSON string",
                    at: index, hint: "write it as \\n, \\t or \\u00XX")
            }
            index += 1
        }
        throw ScanError("unterminated string: missing closing '\"'", at: open)
    }

    private mutating func scanEscape() throws(ScanError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw ScanError("unterminated string: missing closing '\"'", at: start) }
        switch bytes[index] {
        case ASCII.quote, ASCII.backslash, ASCII.slash, 0x62, 0x66, 0x6E, 0x72, 0x74:
            index += 1
        case 0x75:
            index += 1
            for _ in 0..<4 {
                guard index < bytes.count, ASCII.isHexDigit(bytes[index]) else {
                    throw ScanError("invalid \\u escape: expected 4 hexadecimal digits", at: start)
                }
                index += 1
            }
        default:
            throw ScanError(
                "invalid escape '\\\(ASCII.describeCharacter(at: index, in: bytes).dropFirst().dropLast())'",
                at: start, hint: "JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
        }
    }

    mutating func scanNumber() throws(ScanError) {
        if bytes[index] == ASCII.minus { index += 1 }
        guard index < bytes.count, ASCII.isDigit(bytes[index]) else {
            throw ScanError("invalid number: expected a digit", at: index)
        }
        if bytes[index] == ASCII.zero {
            index += 1
            if index < bytes.count, ASCII.isDigit(bytes[index]) {
                throw ScanError("invalid number: leading zeros are not allowed", at: index - 1)
            }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == ASCII.dot {
            index += 1
            try requireDigits(after: "'.'")
        }
        if index < bytes.count, bytes[index] | 0x20 == 0x65 {
            index += 1
            if index < bytes.count, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus { index += 1 }
            try requireDigits(after: "the exponent")
        }
    }

    private mutating func skipDigits() {
        while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
    }

    private mutating func requireDigits(after what: String) throws(ScanError) {
        guard index < bytes.count, ASCII.isDigit(bytes[index]) else {
            throw ScanError("invalid number: expected a digit after \(what)", at: index)
        }
        skipDigits()
    }
}
