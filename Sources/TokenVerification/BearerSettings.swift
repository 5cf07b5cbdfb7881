/// How Bearer tokens are checked.
package struct BearerSettings: Sendable {
    /// `iss` must equal this, when set.
    package var issuer: String?
    /// `aud` must contain this, when set.
    package var audience: String?
    /// The claim naming the user (`sub`, `preferred_username`, …).
    package var userClaim = "sub"
    /// An HS256 secret (at least 32 bytes).
    package var hmacSecret: String?
    /// An RS256 or ES256 public key in PEM.
    package var publicKeyPEM: String?
    /// A JWKS document (RS256/ES256 keys with kids).
    package var jwksJSON: String?
    /// Seconds of clock difference allowed for `exp` and `nbf`.
    package var leewaySeconds = 60

    /// Settings with every default.
    package init() {}
}

/// Keys that cannot be used.
package struct BearerConfigError: Error, Sendable, Equatable {
    /// What is wrong, without the key.
    package let message: String
    init(_ message: String) { self.message = message }
}

/// Why a token was refused, in words a caller may read (no claim value, no token).
package struct BearerRejection: Error, Sendable, Equatable {
    /// The reason.
    package let reason: String
    /// A rejection with its reason.
    package init(_ reason: String) { self.reason = reason }
}
