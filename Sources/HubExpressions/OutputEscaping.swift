/// Escaping of substituted text. This is the render hot path: a value is scanned once and, in the
/// common case of nothing to escape, appended whole; otherwise unescaped runs are appended in bulk.
enum OutputEscaping {
    @inline(__always)
    static func append(_ text: Substring, in context: OutputContext, to out: inout String) {
        switch context {
        case .jsonString: appendJSON(text, to: &out)
        case .xmlText: appendXML(text, attribute: false, to: &out)
        case .xmlAttribute: appendXML(text, attribute: true, to: &out)
        case .plain: out.append(contentsOf: text)
        }
    }

    /// JSON string escaping: `"` `\` and C0 controls; everything else (incl. non-ASCII) stays UTF-8.
    static func appendJSON(_ text: Substring, to out: inout String) {
        // Fast path: most values need no escaping and are appended in one go.
        let clean = text.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 < 0x20 || $0 == ASCII.quote || $0 == ASCII.backslash }
        }
        if clean == true {
            out.append(contentsOf: text)
            return
        }
        let utf8 = text.utf8
        var runStart = utf8.startIndex
        var i = runStart
        while i != utf8.endIndex {
            let b = utf8[i]
            if b < 0x20 || b == ASCII.quote || b == ASCII.backslash {
                out.append(contentsOf: text[runStart..<i])
                out.append(jsonEscape(b))
                runStart = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        out.append(contentsOf: text[runStart..<utf8.endIndex])
    }

    private static func jsonEscape(_ b: UInt8) -> String {
        switch b {
        case ASCII.quote: return "\\\""
        case ASCII.backslash: return "\\\\"
        case ASCII.lineFeed: return "\\n"
        case ASCII.carriageReturn: return "\\r"
        case ASCII.tab: return "\\t"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        default: return ("\\u00" + String(hexDigit(b >> 4)) + String(hexDigit(b & 0xF))).lowercased()
        }
    }

    /// XML escaping. Line breaks and tabs in attributes become references because parsers would
    /// otherwise normalise them to spaces; other C0 controls cannot be written in XML 1.0 at all,
    /// not even as references, so they become U+FFFD.
    static func appendXML(_ text: Substring, attribute: Bool, to out: inout String) {
        let clean = text.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { xmlEscape($0, attribute: attribute) != nil }
        }
        if clean == true {
            out.append(contentsOf: text)
            return
        }
        let utf8 = text.utf8
        var runStart = utf8.startIndex
        var i = runStart
        while i != utf8.endIndex {
            let b = utf8[i]
            if let replacement = xmlEscape(b, attribute: attribute) {
                out.append(contentsOf: text[runStart..<i])
                out.append(replacement)
                runStart = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        out.append(contentsOf: text[runStart..<utf8.endIndex])
    }

    @inline(__always)
    private static func xmlEscape(_ b: UInt8, attribute: Bool) -> String? {
        if b > ASCII.greaterThan { return nil }
        switch b {
        case ASCII.ampersand: return "&amp;"
        case ASCII.lessThan: return "&lt;"
        case ASCII.greaterThan: return "&gt;"
        case ASCII.quote: return attribute ? "&quot;" : nil
        case ASCII.apostrophe: return attribute ? "&apos;" : nil
        case ASCII.carriageReturn: return "&#13;"
        case ASCII.lineFeed: return attribute ? "&#10;" : nil
        case ASCII.tab: return attribute ? "&#9;" : nil
        case 0..<0x20: return "\u{FFFD}"
        default: return nil
        }
    }

    static func hexDigit(_ nibble: UInt8) -> Character {
        Character(Unicode.Scalar(nibble < 10 ? nibble + ASCII.zero : nibble - 10 + 0x41))
    }
}
