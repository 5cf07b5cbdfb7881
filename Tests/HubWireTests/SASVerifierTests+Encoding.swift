import HubWire
import Testing

extension SASVerifierTests {
    @Test("escapes that decode to invalid UTF-8 are malformed", arguments: ["skn=%ff", "skn=%c3", "sig=%80abc"])
    func invalidUTF8(_ field: String) {
        let name = String(field.prefix { $0 != "=" })
        let header = Self.seedToken.split(separator: "&").map { $0.hasPrefix(name + "=") ? Substring(field) : $0 }
            .joined(separator: "&")
        #expect(throws: SASVerificationError(kind: .malformed)) { try Self.verify(header) }
    }
}
