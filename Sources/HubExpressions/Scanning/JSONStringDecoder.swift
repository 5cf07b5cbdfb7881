/// Undoes JSON string escapes in text the scanner already validated.
enum JSONStringDecoder {
    static func decode(_ source: [UInt8], _ token: JSONStringToken) -> DecodedText {
        guard token.hasEscapes else { return DecodedText(verbatim: source, from: token.start, to: token.end) }
        var text = DecodedText()
        var i = token.start
        while i < token.end {
            let b = source[i]
            guard b == ASCII.backslash else {
                text.append(b, from: i)
                i += 1
                continue
            }
            let kind = source[i + 1]
            switch kind {
            case 0x62: text.append(0x08, from: i)
            case 0x66: text.append(0x0C, from: i)
            case 0x6E: text.append(ASCII.lineFeed, from: i)
            case 0x72: text.append(ASCII.carriageReturn, from: i)
            case 0x74: text.append(ASCII.tab, from: i)
            case 0x75:
                let (scalar, length) = unicodeEscape(source, at: i, end: token.end)
                text.append(scalar, from: i)
                i += length
                continue
            default: text.append(kind, from: i)
            }
            i += 2
        }
        text.finish(at: token.end)
        return text
    }

    /// Decodes `\uXXXX` (joining a following low surrogate); returns the scalar and bytes consumed.
    /// A lone surrogate cannot be represented in a Swift string, so it becomes U+FFFD.
    private static func unicodeEscape(_ source: [UInt8], at i: Int, end: Int) -> (Unicode.Scalar, Int) {
        let unit = hex(source, i + 2)
        if unit >= 0xD800 && unit < 0xDC00, i + 12 <= end,
            source[i + 6] == ASCII.backslash, source[i + 7] == 0x75
        {
            let low = hex(source, i + 8)
            if low >= 0xDC00 && low < 0xE000 {
                let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                return (Unicode.Scalar(value) ?? "\u{FFFD}", 12)
            }
        }
        return (Unicode.Scalar(unit) ?? "\u{FFFD}", 6)
    }

    private static func hex(_ source: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 4 | ASCII.hexValue(source[at + $1]) }
    }
}
