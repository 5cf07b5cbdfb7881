/// The query of a request URI, with NH's presence flags (`&direct`, `&test`) as keys without values.
struct QueryString {
    private var values: [String: String] = [:]

    init(_ query: String?) {
        for part in (query ?? "").split(separator: "&") {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = Self.decode(String(pieces[0]), plusAsSpace: true).lowercased()
            values[key] = pieces.count > 1 ? Self.decode(String(pieces[1]), plusAsSpace: true) : ""
        }
    }

    /// The value of `key` (case-insensitive); "" for a flag given without a value.
    subscript(key: String) -> String? { values[key.lowercased()] }

    /// True when the flag is present, whatever its value (§2: presence flags).
    func has(_ key: String) -> Bool { values[key.lowercased()] != nil }

    /// Percent-decodes UTF-8; malformed escapes are kept as written.
    static func decode(_ text: String, plusAsSpace: Bool) -> String {
        guard text.contains("%") || (plusAsSpace && text.contains("+")) else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
