/// A signed SAS token, ready for the `Authorization` header.
///
/// The header value is a bearer credential: `description` and mirrors show only the redacted form.
public struct SASToken: Sendable, Equatable {
    /// `SharedAccessSignature sr=…&sig=…&se=…&skn=…` (sr first; sig escaped with the same hex case as sr).
    public let headerValue: String
    /// The resource URI as signed, before encoding.
    public let resource: String
    /// `sr` exactly as sent, i.e. the percent-encoded resource.
    public let encodedResource: String
    /// Expiry, epoch seconds.
    public let expiry: Int64
    /// The policy name (`skn`, before encoding).
    public let keyName: String
    /// The header value with `sig` replaced by `<redacted>`.
    public let redacted: String

    init(
        resource: String, encodedResource: String, expiry: Int64, keyName: String,
        encodedSignature: String, encodedKeyName: String
    ) {
        self.resource = resource
        self.encodedResource = encodedResource
        self.expiry = expiry
        self.keyName = keyName
        let prefix = "SharedAccessSignature sr=\(encodedResource)&sig="
        let suffix = "&se=\(expiry)&skn=\(encodedKeyName)"
        self.headerValue = prefix + encodedSignature + suffix
        self.redacted = prefix + Redaction.placeholder + suffix
    }
}

extension SASToken: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Equal to `redacted`.
    public var description: String { redacted }

    /// `SASToken(` + `redacted` + `)`.
    public var debugDescription: String { "SASToken(\(redacted))" }

    /// Mirror without the signature.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "headerValue": redacted, "resource": resource, "expiry": expiry, "keyName": keyName,
            ], displayStyle: .struct)
    }
}
