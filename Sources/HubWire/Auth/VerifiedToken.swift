/// What a successfully verified token proved.
public struct VerifiedToken: Sendable, Equatable {
    /// The policy whose key signed the token.
    public let policy: String
    /// The token's expiry, epoch seconds.
    public let expiry: Int64
    /// The decoded `sr`, i.e. the URI the token was issued for.
    public let audience: String

    /// Creates a value; public so other modules' tests can build expectations.
    public init(policy: String, expiry: Int64, audience: String) {
        self.policy = policy
        self.expiry = expiry
        self.audience = audience
    }
}
