/// Why a request's SAS token was refused, with the status and NH-style detail a server answers with.
///
/// Details are fixed texts (nh-rest-api.md §1.6); they never quote the token, so nothing secret can leak.
public struct SASVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The failure classes a verifier distinguishes.
    public enum Kind: Sendable, Equatable {
        /// No (or an empty) Authorization header.
        case missingHeader
        /// Not `SharedAccessSignature sr=…&sig=…&se=…&skn=…`, a bad escape, or a non-numeric `se`.
        case malformed
        /// `skn` names no known policy.
        case unknownPolicy
        /// The signature does not match the policy's key.
        case invalidSignature
        /// `se` is not in the future.
        case expired
        /// `sr` does not cover the request's host and path.
        case invalidAudience
        /// The policy lacks the right the operation needs.
        case missingRight(AccessRight)
    }

    /// The failure class.
    public let kind: Kind

    /// Creates an error of `kind`.
    public init(kind: Kind) {
        self.kind = kind
    }

    /// HTTP status to answer with: always 401, following the service's older claim behaviour in §1.6.
    public var status: Int { 401 }

    /// The `<Detail>` text the service uses, without the TrackingId suffix.
    public var detail: String {
        switch kind {
        case .missingHeader: "MissingToken: The authorization header was not provided."
        case .malformed:
            "MalformedToken: The credentials contained in the authorization header are not in the correct format."
        // Real Service Bus reports an unknown key name as a bad signature; the prefix keeps clients' parsing intact
        // while the sentence tells an emulator user what actually went wrong.
        case .unknownPolicy: "InvalidSignature: The token's key name does not match any shared access policy."
        case .invalidSignature: "InvalidSignature: The token has an invalid signature."
        case .expired: "ExpiredToken: The token is expired."
        case .invalidAudience: "InvalidAudience: The authorization header contains a token with a wrong audience."
        case .missingRight(let right): "\(right.rawValue) claim is required for this operation."
        }
    }

    /// `status` and `detail`, e.g. `401 ExpiredToken: The token is expired.`
    public var description: String {
        "\(status) \(detail)"
    }
}

extension SASVerificationError {
    static let missingHeader = SASVerificationError(kind: .missingHeader)
    static let malformed = SASVerificationError(kind: .malformed)
    static let unknownPolicy = SASVerificationError(kind: .unknownPolicy)
    static let invalidSignature = SASVerificationError(kind: .invalidSignature)
    static let expired = SASVerificationError(kind: .expired)
    static let invalidAudience = SASVerificationError(kind: .invalidAudience)
}
