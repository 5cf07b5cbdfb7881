/// The query of a request a server received, as `name=value` items, percent-decoded (`+` is a space, as forms send
/// it). An item with a broken escape or bytes that are not UTF-8 keeps its text as written and makes the query
/// invalid: `pushline serve` refuses such a query (400), the emulator reads on as NH does.
public struct ReceivedQuery: Sendable {
    /// The items in order; a flag without `=` (`&direct`) has the value "".
    public let items: [(name: String, value: String)]
    /// False when some name or value did not decode.
    public let isValid: Bool

    /// The items of `query` (without its `?`); nil is no query.
    public init(_ query: String?) {
        var valid = true
        items = (query ?? "").split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentCoding.decode(String(parts[0]), plusAsSpace: true)
            let value = parts.count > 1 ? PercentCoding.decode(String(parts[1]), plusAsSpace: true) : ""
            if name == nil || value == nil { valid = false }
            return (name ?? String(parts[0]), value ?? String(parts[1]))
        }
        isValid = valid
    }

    /// The first value of `name`, matched exactly.
    public subscript(name: String) -> String? { items.first { $0.name == name }?.value }

    /// The first value of `name`, matched without regard to case (NH reads query names so).
    public func value(ignoringCase name: String) -> String? {
        let wanted = name.lowercased()
        return items.first { $0.name.lowercased() == wanted }?.value
    }

    /// True when `name` (without regard to case) is present, whatever its value: NH's flags (`&direct`, `&test`).
    public func has(_ name: String) -> Bool { value(ignoringCase: name) != nil }
}
