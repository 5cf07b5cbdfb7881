import HubWire

/// A right a step needs on a hub.
public struct HubAccess: Sendable {
    /// The declared hub.
    public var hub: HubDeclaration
    /// The right its requests need.
    public var right: AccessRight
    /// What for, in a few words: "register installations", "send".
    public var purpose: String

    /// Creates an access.
    public init(hub: HubDeclaration, right: AccessRight, purpose: String) {
        self.hub = hub
        self.right = right
        self.purpose = purpose
    }
}
