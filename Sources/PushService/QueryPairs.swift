import HubWire

/// A query string's `name=value` pairs, percent-decoded strictly (`+` is a space, as forms send it). A broken
/// escape or invalid UTF-8 makes the whole query invalid, answered 400, rather than decoded into something else.
struct QueryPairs {
    let pairs: [(name: String, value: String)]
    /// False when some name or value did not decode.
    let isValid: Bool

    init(_ query: String?) {
        var valid = true
        pairs = (query ?? "").split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentCoding.decode(String(parts[0]), plusAsSpace: true)
            let value = parts.count > 1 ? PercentCoding.decode(String(parts[1]), plusAsSpace: true) : ""
            if name == nil || value == nil { valid = false }
            return (name ?? "", value ?? "")
        }
        isValid = valid
    }

    var names: [String] { pairs.map(\.name) }

    /// The first value of `name`.
    subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }
}
