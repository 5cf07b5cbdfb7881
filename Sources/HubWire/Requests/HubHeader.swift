/// One HTTP header, order preserved.
public struct HubHeader: Sendable, Equatable {
    /// The name as written, e.g. `ServiceBusNotification-Format`.
    public var name: String
    /// The value as written.
    public var value: String

    /// Creates a header.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension HubHeader {
    /// True when `name` equals `other` ignoring ASCII case (HTTP header names are case-insensitive).
    func hasName(_ other: String) -> Bool {
        name.lowercased() == other.lowercased()
    }
}

extension [HubHeader] {
    /// The value of the first header named `name` (case-insensitive).
    func value(named name: String) -> String? {
        first { $0.hasName(name) }?.value
    }
}
