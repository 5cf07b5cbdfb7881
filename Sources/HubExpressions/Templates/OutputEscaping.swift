/// Escaping of substituted text. This is the render hot path: a value is scanned once as bytes and
/// unescaped runs are copied in bulk into the render's storage.
enum OutputEscaping {
    /// The most bytes one input byte can become in `context`: `\u001f` in JSON, `&quot;` in XML.
    @inline(__always)
    static func expansion(in context: OutputContext) -> Int {
        context == .plain ? 1 : 6
    }

    /// Appends `text` escaped for `context` to a String (literals at compile time, one-off text).
    static func append(_ text: Substring, in context: OutputContext, to out: inout String) {
        out += RenderBuffer.string(bound: text.utf8.count * expansion(in: context)) {
            append(text, in: context, to: &$0)
        }
    }

    @inline(__always)
    static func append(_ text: Substring, in context: OutputContext, to out: inout RenderBuffer) {
        var text = text
        text.withUTF8 { bytes in
            switch context {
            case .jsonString: appendJSON(bytes, to: &out)
            case .xmlText: appendXML(bytes, attribute: false, to: &out)
            case .xmlAttribute: appendXML(bytes, attribute: true, to: &out)
            case .plain: out.append(bytes)
            }
        }
    }

    /// JSON string escaping: `"` `\` and C0 controls; everything else (incl. non-ASCII) stays UTF-8.
    static func appendJSON(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout RenderBuffer) {
        var runStart = 0
        for i in bytes.indices {
            let b = bytes[i]
            guard b < 0x20 || b == ASCII.quote || b == ASCII.backslash else { continue }
            out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            switch b {
            case ASCII.quote: out.append("\\\"")
            case ASCII.backslash: out.append("\\\\")
            case ASCII.lineFeed: out.append("\\n")
            case ASCII.carriageReturn: out.append("\\r")
            case ASCII.tab: out.append("\\t")
            case 0x08: out.append("\\b")
            case 0x0C: out.append("\\f")
            default:
                out.append("\\u00")
                out.append(lowerHexDigit(b >> 4))
                out.append(lowerHexDigit(b & 0xF))
            }
            runStart = i + 1
        }
        out.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// XML escaping. Line breaks and tabs in attributes become references because parsers would
    /// otherwise normalise them to spaces; other C0 controls cannot be written in XML 1.0 at all,
    /// not even as references, so they become U+FFFD.
    static func appendXML(_ bytes: UnsafeBufferPointer<UInt8>, attribute: Bool, to out: inout RenderBuffer) {
        var runStart = 0
        for i in bytes.indices {
            let b = bytes[i]
            guard b <= ASCII.greaterThan, let replacement = xmlEscape(b, attribute: attribute) else { continue }
            out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            out.append(replacement)
            runStart = i + 1
        }
        out.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    @inline(__always)
    private static func xmlEscape(_ b: UInt8, attribute: Bool) -> StaticString? {
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

    /// `0`–`9`, `A`–`F`.
    @inline(__always)
    static func upperHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? nibble + ASCII.zero : nibble - 10 + 0x41
    }

    /// `0`–`9`, `a`–`f`.
    @inline(__always)
    static func lowerHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? nibble + ASCII.zero : nibble - 10 + 0x61
    }
}
