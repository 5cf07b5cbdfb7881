#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Checks SAS tokens the way the service does (nh-rest-api.md §1.2 "Consequences for the server").
///
/// Order: parse → policy → signature → expiry → audience → right, so a forged token never learns whether
/// its expiry or audience would have been accepted.
public struct SASVerifier: Sendable {
    // Several policies may share a name: a real policy has a primary and a secondary key, either may sign.
    private let policiesByName: [String: [AccessPolicy]]
    private let acceptedHosts: Set<String>
    private let clockSkew: Int64

    /// Creates a verifier.
    /// - Parameters:
    ///   - policies: policies whose keys may sign; equal names are tried in order (primary, secondary key).
    ///   - acceptedHosts: `host` or `host:port` values the token audience may name; compared case-insensitively.
    ///   - clockSkew: seconds a token stays valid after `se`.
    public init(policies: [AccessPolicy], acceptedHosts: [String], clockSkew: Int64 = 0) {
        self.policiesByName = Dictionary(grouping: policies, by: \.name)
        self.acceptedHosts = Set(acceptedHosts.map(AudienceMatch.normalisedAuthority))
        self.clockSkew = clockSkew
    }

    /// Verifies an Authorization header for a request to `path` (e.g. `/myhub/messages`) needing `right`
    /// at `now` (epoch seconds).
    public func verify(
        authorization: String?, path: String, right: AccessRight,
        now: Int64
    ) throws(SASVerificationError) -> VerifiedToken {
        let fields = try TokenFields(header: authorization)
        guard let candidates = policiesByName[fields.keyName] else { throw .unknownPolicy }
        // The signature covers sr exactly as transmitted: re-encoding would break either upper- or lower-hex clients.
        let stringToSign = SASSigner.stringToSign(encodedResource: fields.rawResource, expiry: fields.expiry)
        // Canonical base64 only: the decoder ignores the spare bits of the last character, so `…Uu=` would pass for the
        // `…Us=` the key makes (found by SASTokenFuzz). A signature is what the key computes, written one way.
        guard let signature = Data(base64Encoded: fields.signature),
            signature.base64EncodedString() == fields.signature,
            let policy = candidates.first(where: {
                SASSigner.isValid(signature: signature, stringToSign: stringToSign, key: $0.key)
            })
        else { throw .invalidSignature }
        guard fields.expiry > now - clockSkew else { throw .expired }
        guard AudienceMatch(audience: fields.audience).covers(path: path, acceptedHosts: acceptedHosts) else {
            throw .invalidAudience
        }
        guard policy.grants(right) else { throw SASVerificationError(kind: .missingRight(right)) }
        return VerifiedToken(policy: policy.name, expiry: fields.expiry, audience: fields.audience)
    }
}

extension SASVerifier: CustomStringConvertible, CustomReflectable {
    /// Policy names and hosts; never keys.
    public var description: String {
        "SASVerifier(policies: \(policiesByName.keys.sorted()), acceptedHosts: \(acceptedHosts.sorted()), clockSkew: \(clockSkew))"
    }

    /// Mirror without keys.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "policies": policiesByName.keys.sorted(), "acceptedHosts": acceptedHosts.sorted(),
                "clockSkew": clockSkew,
            ], displayStyle: .struct)
    }
}
