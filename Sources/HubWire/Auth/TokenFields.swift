/// The fields of a `SharedAccessSignature …` header, split and decoded for verification.
struct TokenFields: Sendable {
    /// `sr` exactly as transmitted: this is what was signed.
    let rawResource: String
    /// `sr` URL-decoded: the audience URI.
    let audience: String
    /// `sig` form-decoded: standard base64.
    let signature: String
    /// `se` as a number.
    let expiry: Int64
    /// `skn` form-decoded.
    let keyName: String

    private static let prefix = "sharedaccesssignature"

    init(header: String?) throws(SASVerificationError) {
        guard let header, !header.trimmingWhitespace().isEmpty else { throw .missingHeader }
        // Real parsers split on whitespace and demand exactly two parts; raw spaces cannot occur in a valid token.
        let parts = header.split(whereSeparator: { $0.isWhitespace })
        guard parts.count == 2, parts[0].lowercased() == Self.prefix else { throw .malformed }

        var raw: [String: String] = [:]
        for field in parts[1].split(separator: "&", omittingEmptySubsequences: true) {
            // `name=value`, one `=` and a name, as the service splits a field: every client percent-encodes its values,
            // so a raw `=` (or a field without a name) is not a token a client made (found by SASTokenFuzz).
            guard let equals = field.firstIndex(of: "="), equals != field.startIndex,
                !field[field.index(after: equals)...].contains("=")
            else { throw .malformed }
            let name = String(field[..<equals])
            // A repeated field is ambiguous: which sr did the client mean to sign?
            guard raw[name] == nil else { throw .malformed }
            raw[name] = String(field[field.index(after: equals)...])
        }
        guard let sr = raw["sr"], !sr.isEmpty, let sigText = raw["sig"], let seText = raw["se"],
            let sknText = raw["skn"],
            let audience = PercentCoding.decode(sr, plusAsSpace: true),
            let signature = PercentCoding.decode(sigText, plusAsSpace: true),
            let expiryText = PercentCoding.decode(seText, plusAsSpace: true),
            let keyName = PercentCoding.decode(sknText, plusAsSpace: true),
            !signature.isEmpty, !keyName.isEmpty
        else { throw .malformed }
        // Digits only: Int64 would also accept a sign, which no client sends.
        guard !expiryText.isEmpty, expiryText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let expiry = Int64(expiryText)
        else { throw .malformed }

        self.rawResource = sr
        self.audience = audience
        self.signature = signature
        self.expiry = expiry
        self.keyName = keyName
    }
}
