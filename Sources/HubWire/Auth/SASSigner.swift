import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Signs Shared Access Signature tokens for one access policy (nh-rest-api.md §1.2).
public struct SASSigner: Sendable {
    /// The policy name sent as `skn`.
    public let keyName: String
    // Secret: kept private so only signatures derived from it ever leave this type.
    let key: String

    /// Creates a signer from a policy name and its key text (used as-is, never base64-decoded).
    public init(keyName: String, key: String) {
        self.keyName = keyName
        self.key = key
    }

    /// Signs `resource` exactly as given (callers normalise it) for tokens expiring at `expiry` (epoch seconds).
    ///
    /// `sr`, `sig` and `skn` are percent-encoded with `hexCase`; the header lists `sr, sig, se, skn` in that order.
    public func token(forResource resource: String, expiry: Int64, hexCase: HexCase = .lower) -> SASToken {
        let encodedResource = Self.percentEncode(resource, hexCase: hexCase)
        let signature = Self.signature(
            stringToSign: Self.stringToSign(encodedResource: encodedResource, expiry: expiry),
            key: key)
        return SASToken(
            resource: resource, encodedResource: encodedResource, expiry: expiry, keyName: keyName,
            encodedSignature: Self.percentEncode(signature, hexCase: hexCase),
            encodedKeyName: Self.percentEncode(keyName, hexCase: hexCase))
    }

    /// Percent-encodes every UTF-8 byte except `A-Z a-z 0-9 - _ . ~`, with `%XX` digits in `hexCase`.
    public static func percentEncode(_ text: String, hexCase: HexCase) -> String {
        PercentCoding.encode(text, hexCase: hexCase)
    }

    /// The text that is signed: the encoded resource, one LF, the decimal expiry.
    public static func stringToSign(encodedResource: String, expiry: Int64) -> String {
        "\(encodedResource)\n\(expiry)"
    }

    /// Standard base64 of HMAC-SHA256 over `stringToSign`, keyed with the UTF-8 bytes of the key *text*.
    ///
    /// The key looks like base64 but every official SDK uses its text bytes; decoding it is the classic bug.
    public static func signature(stringToSign: String, key: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array(stringToSign.utf8),
            using: SymmetricKey(data: Array(key.utf8)))
        return Data(mac).base64EncodedString()
    }

    /// Constant-time check that `signature` (raw bytes) is the MAC of `stringToSign` under `key`.
    static func isValid(signature: Data, stringToSign: String, key: String) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(
            signature, authenticating: Array(stringToSign.utf8),
            using: SymmetricKey(data: Array(key.utf8)))
    }
}

extension SASSigner: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Names the policy only; the key is redacted.
    public var description: String {
        "SASSigner(keyName: \(keyName), key: \(Redaction.placeholder))"
    }

    /// Same as `description`.
    public var debugDescription: String { description }

    /// Mirror without the key.
    public var customMirror: Mirror {
        Mirror(self, children: ["keyName": keyName, "key": Redaction.placeholder], displayStyle: .struct)
    }
}
