import HubWire
import TestSupport
import Testing

@Suite("HubAddress")
struct HubAddressTests {
    /// Connection endpoint, hub, override, expected hub base URL, expected SAS resource.
    static let cases: [(String, String, String?, String, String)] = [
        (
            "sb://contoso-nh.servicebus.windows.net/", "myhub", nil,
            "https://contoso-nh.servicebus.windows.net/myhub/", "https://contoso-nh.servicebus.windows.net/myhub"
        ),
        (
            "sb://contoso-nh.servicebus.windows.net", "myhub", nil,
            "https://contoso-nh.servicebus.windows.net/myhub/", "https://contoso-nh.servicebus.windows.net/myhub"
        ),
        (
            "sb://contoso-nh.servicebus.windows.net/", "myhub", "http://127.0.0.1:8080",
            "http://127.0.0.1:8080/myhub/", "http://127.0.0.1:8080/myhub"
        ),
        (
            "sb://contoso-nh.servicebus.windows.net/", "myhub", "http://127.0.0.1:8080/",
            "http://127.0.0.1:8080/myhub/", "http://127.0.0.1:8080/myhub"
        ),
        (
            "sb://contoso-nh.servicebus.windows.net/", "myhub", "sb://localhost:8443",
            "https://localhost:8443/myhub/", "https://localhost:8443/myhub"
        ),
        (
            "sb://contoso-nh.servicebus.windows.net/", "myhub", "  ",
            "https://contoso-nh.servicebus.windows.net/myhub/", "https://contoso-nh.servicebus.windows.net/myhub"
        ),
        ("http://127.0.0.1:8080/", "a/b/c", nil, "http://127.0.0.1:8080/a/b/c/", "http://127.0.0.1:8080/a/b/c"),
        ("http://127.0.0.1:8080/", "/myhub/", nil, "http://127.0.0.1:8080/myhub/", "http://127.0.0.1:8080/myhub"),
        (
            "http://127.0.0.1:8080/", "my hub?#", nil, "http://127.0.0.1:8080/my%20hub%3F%23/",
            "http://127.0.0.1:8080/my%20hub%3F%23"
        ),
        (
            "http://127.0.0.1:8080/nh", "My.Hub-1_x~", nil, "http://127.0.0.1:8080/nh/My.Hub-1_x~/",
            "http://127.0.0.1:8080/nh/My.Hub-1_x~"
        ),
    ]

    @Test("hub URLs", arguments: cases)
    func addresses(_ row: (String, String, String?, String, String)) throws {
        let (endpoint, hub, override, baseURL, resource) = row
        let connection = try ConnectionString(parsing: "Endpoint=\(endpoint);SharedAccessKeyName=p;SharedAccessKey=k")
        #expect(HubAddress.hubBaseURL(connection: connection, hub: hub, endpointOverride: override) == baseURL)
        #expect(HubAddress.sasResource(connection: connection, hub: hub, endpointOverride: override) == resource)
    }

    @Test("the default resource reproduces the seed-tutorial vector")
    func seedVector() throws {
        let seed = try #require(try SASFixture.load().vectors.first { $0.style == "seed-tutorial" })
        let connection = try ConnectionString(
            parsing: "Endpoint=sb://contoso-nh.servicebus.windows.net/;"
                + "SharedAccessKeyName=\(seed.keyName);SharedAccessKey=\(seed.key)")
        let resource = HubAddress.sasResource(connection: connection, hub: "myhub", endpointOverride: nil)
        #expect(resource == seed.resource)
        #expect(connection.signer.token(forResource: resource, expiry: seed.expiry).headerValue == seed.token)
    }

    @Test("a token for the SAS resource covers the hub's request paths")
    func resourceCoversRequests() throws {
        let connection = try ConnectionString(
            parsing: "Endpoint=http://127.0.0.1:8080/;SharedAccessKeyName=p;SharedAccessKey=k")
        let verifier = SASVerifier(
            policies: [AccessPolicy(name: "p", key: "k", rights: [.send])],
            acceptedHosts: [connection.host])
        for hub in ["myhub", "a/b", "my hub"] {
            let header = connection.signer.token(
                forResource: HubAddress.sasResource(connection: connection, hub: hub, endpointOverride: nil),
                expiry: 100
            ).headerValue
            let base = HubAddress.hubBaseURL(connection: connection, hub: hub, endpointOverride: nil)
            let path = String(base.dropFirst("http://127.0.0.1:8080".count)) + "messages"
            #expect(throws: Never.self) { try verifier.verify(authorization: header, path: path, right: .send, now: 0) }
        }
    }
}
