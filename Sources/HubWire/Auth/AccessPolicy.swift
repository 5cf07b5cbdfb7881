/// A shared access policy as a server (the emulator) holds it: name, key and granted rights.
public struct AccessPolicy: Sendable, Equatable {
    /// Policy name, matched exactly against a token's `skn`.
    public let name: String
    /// Key text; secret, never printed.
    public let key: String
    /// Rights as configured; see `grants(_:)` for the effective ones.
    public let rights: Set<AccessRight>

    /// Creates a policy.
    public init(name: String, key: String, rights: Set<AccessRight>) {
        self.name = name
        self.key = key
        self.rights = rights
    }

    /// Whether the policy allows `right`; Manage implies Send and Listen, as on the portal's default policies.
    public func grants(_ right: AccessRight) -> Bool {
        rights.contains(right) || rights.contains(.manage)
    }
}

extension AccessPolicy: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Name and rights; the key is redacted.
    public var description: String {
        let names = AccessRight.allCases.filter(rights.contains).map(\.rawValue).joined(separator: ",")
        return "AccessPolicy(name: \(name), rights: [\(names)], key: \(Redaction.placeholder))"
    }

    /// Same as `description`.
    public var debugDescription: String { description }

    /// Mirror without the key.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "key": Redaction.placeholder, "rights": rights], displayStyle: .struct)
    }
}
