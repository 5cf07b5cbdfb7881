/// Who made a request, as authentication found: a signed-in user or an API key, and what it may do.
public struct Caller: Sendable, Equatable {
    /// How the caller proved who it is.
    public enum Kind: String, Sendable {
        /// HTTP Basic against the users file.
        case user
        /// The `apikey` header.
        case apiKey = "api-key"
        /// A Bearer JWT.
        case token
    }

    /// The user name, or the key's name in the service file.
    public let name: String
    /// The user whose devices this caller manages: the signed-in user, or the user a device key belongs to
    /// (`api-keys: { alice-phone: { user: alice } }`); nil for a sender key.
    public let user: String?
    /// How it signed in.
    public let kind: Kind
    /// What it may do.
    public let scopes: Set<Scope>
}
