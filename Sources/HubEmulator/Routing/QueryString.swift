import HubWire

/// The query of a request URI, with NH's presence flags (`&direct`, `&test`) as keys without values. NH reads names
/// case-insensitively and keeps a value with a broken escape as written.
struct QueryString: Sendable {
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

    /// Percent-decodes; text with a broken escape is kept as written.
    static func decode(_ text: String, plusAsSpace: Bool) -> String {
        PercentCoding.decode(text, plusAsSpace: plusAsSpace) ?? text
    }
}
