/// How Bearer tokens are checked.
public struct BearerSettings: Sendable {
    /// `iss` must equal this, when set.
    public var issuer: String?
    /// `aud` must contain this, when set.
    public var audience: String?
    /// The claim naming the user (`sub`, `preferred_username`, …).
    public var userClaim = "sub"
    /// An HS256 secret (at least 32 bytes).
    public var hmacSecret: String?
    /// An RS256 or ES256 public key in PEM.
    public var publicKeyPEM: String?
    /// A JWKS document (RS256/ES256 keys with kids).
    public var jwksJSON: String?
    /// Seconds of clock difference allowed for `exp` and `nbf`.
    public var leewaySeconds = 60

    /// Settings with every default.
    public init() {}
}

/// Keys that cannot be used.
public struct BearerConfigError: Error, Sendable, Equatable {
    /// What is wrong, without the key.
    public let message: String
    init(_ message: String) { self.message = message }
}

/// Why a token was refused, in words a caller may read (no claim value, no token).
public struct BearerRejection: Error, Sendable, Equatable {
    /// The reason.
    public let reason: String
    /// A rejection with its reason.
    public init(_ reason: String) { self.reason = reason }
}
