/// A claim a shared access policy can grant (nh-rest-api.md §1.5).
public enum AccessRight: String, Sendable, CaseIterable {
    /// Registrations and installations (what a client app's key holds).
    case listen = "Listen"
    /// All sends.
    case send = "Send"
    /// Management operations; conventionally implies Send and Listen.
    case manage = "Manage"
}
