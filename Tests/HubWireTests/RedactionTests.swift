import HubWire
import Testing

/// Every human-readable rendering of a value holding a secret must leave the secret out.
@Suite("Redaction")
struct RedactionTests {
    static let signature = "nDOo5CZj0P/q1sLehhcKhLB3kVSRASfxGsg+6YRmhLU="

    /// All renderings Swift offers: print, debugPrint, string interpolation and dump (which uses the mirror).
    static func renderings(of value: some Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
    }

    static func expectNoSecret(in value: some Any, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in renderings(of: value) {
            #expect(!text.contains(Sample.key), "key leaked: \(text)", sourceLocation: sourceLocation)
            #expect(!text.contains("k9Ua5tXvq8Nd3Jm"), sourceLocation: sourceLocation)
            #expect(!text.contains(signature), sourceLocation: sourceLocation)
            #expect(!text.contains("nDOo5CZj0P"), "signature leaked: \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test("connection string")
    func connectionString() throws {
        let connection = try ConnectionString(parsing: Sample.connectionString + ";EntityPath=myhub")
        #expect(
            connection.description == "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName="
                + "DefaultFullSharedAccessSignature;SharedAccessKey=<redacted>;EntityPath=myhub")
        #expect(connection.debugDescription == "ConnectionString(\(connection.description))")
        Self.expectNoSecret(in: connection)
        Self.expectNoSecret(in: [connection])
        Self.expectNoSecret(in: Optional(connection))
    }

    @Test("signer, token, policy, provider")
    func signingValues() {
        let signer = SASSigner(keyName: Sample.keyName, key: Sample.key)
        let token = signer.token(forResource: "https://contoso-nh.servicebus.windows.net/myhub", expiry: Sample.expiry)
        #expect(token.headerValue.contains("nDOo5CZj0P"))  // sanity: the secret is there to be hidden
        #expect(signer.description == "SASSigner(keyName: DefaultFullSharedAccessSignature, key: <redacted>)")
        let policy = AccessPolicy(name: "p", key: Sample.key, rights: [.send, .listen])
        #expect(policy.description == "AccessPolicy(name: p, rights: [Listen,Send], key: <redacted>)")
        let provider = SASTokenProvider(signer: signer, resource: token.resource, lifetime: 60) { 0 }
        _ = provider.token()
        Self.expectNoSecret(in: signer)
        Self.expectNoSecret(in: token)
        Self.expectNoSecret(in: policy)
        Self.expectNoSecret(in: provider)
        Self.expectNoSecret(in: SASVerifier(policies: [policy], acceptedHosts: [Sample.host]))
    }

    @Test(
        "verification errors never quote the token",
        arguments: [
            "SharedAccessSignature sr=x&sig=\(signature)&se=1&skn=\(Sample.key)",
            "SharedAccessSignature sig=\(signature)",
            "SharedAccessSignature sr=https%3a%2f%2fcontoso-nh.servicebus.windows.net%2fmyhub&sig=\(signature)&se=1700000000&skn=DefaultFullSharedAccessSignature",
        ])
    func verifierErrors(_ header: String) throws {
        let verifier = SASVerifier(
            policies: [AccessPolicy(name: Sample.keyName, key: Sample.key, rights: [.listen])],
            acceptedHosts: [Sample.host])
        let error = try #require(throws: SASVerificationError.self) {
            try verifier.verify(authorization: header, path: "/myhub/messages", right: .send, now: 1_800_000_000)
        }
        Self.expectNoSecret(in: error)
        #expect(!error.detail.contains(Sample.key) && !error.detail.contains(Self.signature))
    }
}
