import HubWire
import Testing

@Suite("SASVerifier audience")
struct SASVerifierAudienceTests {
    static let ns = "contoso-nh.servicebus.windows.net"
    static let verifier = SASVerifier(
        policies: [AccessPolicy(name: "p", key: "k", rights: [.manage])],
        acceptedHosts: ["Contoso-NH.servicebus.windows.net", "127.0.0.1:8080"])

    /// Resource signed, request path, whether it is covered.
    static let matrix: [(String, String, Bool)] = [
        // Namespace root (JS; Go without the slash): every hub and sub-resource.
        ("https://\(ns)/", "/myhub/messages", true),
        ("https://\(ns)/", "/otherhub/installations/abc", true),
        ("https://\(ns)/", "/", true),
        ("https://\(ns)", "/myhub/messages", true),
        // Hub token (seed tutorial, Python): the hub and below, on segment boundaries only.
        ("https://\(ns)/myhub", "/myhub", true),
        ("https://\(ns)/myhub", "/myhub/", true),
        ("https://\(ns)/myhub", "/myhub/messages", true),
        ("https://\(ns)/myhub", "/myhub/installations/abc?api-version=2020-06", true),
        ("https://\(ns)/myhub", "/myhub2/messages", false),
        ("https://\(ns)/myhub", "/otherhub/messages", false),
        ("https://\(ns)/myhub", "/my", false),
        ("https://\(ns)/myhub", "/", false),
        ("https://\(ns)/myhub/", "/myhub", true),
        // .NET per-operation token: that operation (and below) only.
        ("http://\(ns)/myhub/messages/", "/myhub/messages", true),
        ("http://\(ns)/myhub/messages/", "/myhub/messages/", true),
        ("http://\(ns)/myhub/messages/", "/myhub/messages/$batch", true),
        ("http://\(ns)/myhub/messages/", "/myhub/installations/abc", false),
        // Java: query in sr is ignored.
        ("https://\(ns)/myhub/messages?api-version=2015-01", "/myhub/messages?api-version=2015-01", true),
        // Scheme ignored, host and path case-insensitive, default port dropped.
        ("sb://CONTOSO-NH.servicebus.windows.net/MyHub", "/myhub/messages", true),
        ("https://\(ns)/myhub", "/MYHUB/Messages", true),
        ("https://\(ns):443/myhub", "/myhub/messages", true),
        ("\(ns)/myhub", "/myhub/messages", true),
        // Other hosts.
        ("https://evil.example.com/myhub", "/myhub/messages", false),
        ("https://\(ns).evil.com/myhub", "/myhub/messages", false),
        ("https://\(ns):8443/myhub", "/myhub/messages", false),
        ("/myhub", "/myhub/messages", false),
        // Emulator on a port; the .NET SDK strips the port from sr.
        ("http://127.0.0.1:8080/myhub", "/myhub/messages", true),
        ("http://127.0.0.1/myhub", "/myhub/messages", true),
        ("http://127.0.0.1:9090/myhub", "/myhub/messages", false),
        // Hub names with '/' and escaped characters.
        ("https://\(ns)/a/b", "/a/b/messages", true),
        ("https://\(ns)/a/b", "/a/messages", false),
        ("https://\(ns)/my%20hub", "/my%20hub/messages", true),
        ("https://\(ns)/my hub", "/my%20hub/messages", true),
    ]

    @Test("audience matrix", arguments: matrix, HexCase.allCases)
    func audience(_ row: (String, String, Bool), _ hexCase: HexCase) throws {
        let (resource, path, covered) = row
        let header = SASSigner(keyName: "p", key: "k").token(forResource: resource, expiry: 100, hexCase: hexCase)
            .headerValue
        if covered {
            let verified = try Self.verifier.verify(authorization: header, path: path, right: .send, now: 0)
            #expect(verified == VerifiedToken(policy: "p", expiry: 100, audience: resource))
        } else {
            #expect(throws: SASVerificationError(kind: .invalidAudience)) {
                try Self.verifier.verify(authorization: header, path: path, right: .send, now: 0)
            }
        }
    }
}
