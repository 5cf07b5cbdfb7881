/// Hand-written JSON output for the few places that need exact bytes (Foundation's encoder escapes `/`).
enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped; `/` and non-ASCII
    /// characters written as they are.
    static func quote(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A compact JSON array of strings, e.g. `["a","b"]`.
    static func array(_ strings: [String]) -> String {
        "[" + strings.map(quote).joined(separator: ",") + "]"
    }
}
