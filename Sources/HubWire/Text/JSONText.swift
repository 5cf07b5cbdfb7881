import Foundation

/// JSON text as Pushline writes it, the one helper for it: values encoded with keys sorted, indented and slashes
/// unescaped (reports, `--format json`, the HTTP API's answers), so the same value is always the same text; and
/// string literals, objects and arrays written by hand where the bytes must be exact (NH's bodies).
package enum JSONText {
    /// `value` as JSON text, keys sorted, indented, `/` not escaped; `{}` for a value that cannot be encoded.
    package static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else { return "{}" }
        return text
    }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped; `/` and non-ASCII
    /// characters written as they are.
    package static func quote(_ text: String) -> String {
        // Most text needs no escape: copied whole rather than scalar by scalar.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
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

    /// A compact JSON object of strings in the order given, e.g. `{"userId":"u1","token":null}` (nil is null).
    package static func object(_ names: [String], _ values: [String?]) -> String {
        var out = "{"
        for (index, name) in names.enumerated() {
            if index > 0 { out += "," }
            out += quote(name) + ":" + ((index < values.count ? values[index] : nil).map(quote) ?? "null")
        }
        return out + "}"
    }

    /// A compact JSON array of strings, e.g. `["a","b"]`.
    package static func array(_ strings: [String]) -> String {
        "[" + strings.map(quote).joined(separator: ",") + "]"
    }
}

/// One row as a JSON Lines line: an object of its fields, in column order, each text or null.
public enum JSONRowLine {
    /// `{"userId":"u1","token":null}` for columns `userId`, `token` and values `u1`, nil.
    public static func of(_ columns: [String], _ values: [String?]) -> String {
        JSONText.object(columns, values)
    }

    /// `text` as a JSON string literal (quotes, backslashes and control characters escaped; nothing else).
    public static func string(_ text: String) -> String {
        JSONText.quote(text)
    }

    /// `["a","b"]`.
    public static func array(_ strings: [String]) -> String {
        JSONText.array(strings)
    }

    /// The strings of a JSON array of strings; empty when the text is not one.
    public static func strings(fromArray text: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }
}
