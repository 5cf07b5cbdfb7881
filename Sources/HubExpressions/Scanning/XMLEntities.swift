/// XML's predefined entities and character rules, shared by the scanner and the decoder.
enum XMLEntities {
    static let predefined: [String: UInt8] = [
        "lt": ASCII.lessThan, "gt": ASCII.greaterThan, "amp": ASCII.ampersand,
        "quot": ASCII.quote, "apos": ASCII.apostrophe,
    ]

    /// The XML 1.0 `Char` production.
    static func isAllowedCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Decodes references and CDATA sections in text the scanner already validated.
    static func decode(_ source: [UInt8], from start: Int, to end: Int) -> DecodedText {
        guard source[start..<end].contains(where: { $0 == ASCII.ampersand || $0 == ASCII.lessThan }) else {
            return DecodedText(verbatim: source, from: start, to: end)
        }
        var text = DecodedText()
        var i = start
        while i < end {
            let b = source[i]
            if b == ASCII.lessThan {
                // Only CDATA can appear here: leaf texts contain no other markup.
                i += 9
                while !(source[i] == ASCII.closeBracket && source[i + 1] == ASCII.closeBracket
                    && source[i + 2] == ASCII.greaterThan)
                {
                    text.append(source[i], from: i)
                    i += 1
                }
                i += 3
            } else if b == ASCII.ampersand {
                var semicolon = i + 1
                while source[semicolon] != ASCII.semicolon { semicolon += 1 }
                text.append(reference(source, i + 1, semicolon), from: i)
                i = semicolon + 1
            } else {
                text.append(b, from: i)
                i += 1
            }
        }
        text.finish(at: end)
        return text
    }

    private static func reference(_ source: [UInt8], _ start: Int, _ end: Int) -> Unicode.Scalar {
        if source[start] == ASCII.hash {
            let isHex = source[start + 1] == 0x78
            let digits = source[(start + (isHex ? 2 : 1))..<end]
            let value = digits.reduce(UInt32(0)) { $0 * (isHex ? 16 : 10) + ASCII.hexValue($1) }
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        let name = String(decoding: source[start..<end], as: UTF8.self)
        return Unicode.Scalar(predefined[name] ?? 0x3F)
    }
}
