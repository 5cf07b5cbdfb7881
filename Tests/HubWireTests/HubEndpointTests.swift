import HubWire
import Testing

/// Shared endpoint for the request-builder tests.
enum Hub {
    static let endpoint = HubEndpoint(hubBaseURL: "https://contoso-nh.servicebus.windows.net/myhub/", hub: "myhub")
    static let base = "https://contoso-nh.servicebus.windows.net/myhub/"
}

@Suite("HubEndpoint")
struct HubEndpointTests {
    @Test("from a connection string: sb:// becomes https://, the hub is appended with a slash")
    func fromConnectionString() throws {
        let connection = try ConnectionString(parsing: Sample.connectionString)
        let endpoint = HubEndpoint(connection: connection, hub: "myhub", endpointOverride: nil)
        #expect(endpoint.hubBaseURL == "https://contoso-nh.servicebus.windows.net/myhub/")
        #expect(endpoint.hub == "myhub")
        #expect(endpoint.apiVersion == "2020-06")
        #expect(endpoint == Hub.endpoint)
    }

    @Test("an override (emulator) replaces the connection's endpoint; hub paths keep their slashes")
    func override() throws {
        let connection = try ConnectionString(parsing: Sample.connectionString)
        let endpoint = HubEndpoint(
            connection: connection, hub: "a/b c", endpointOverride: "http://127.0.0.1:8080",
            apiVersion: "2017-04")
        #expect(endpoint.hubBaseURL == "http://127.0.0.1:8080/a/b%20c/")
        #expect(endpoint.hub == "a/b c")
        #expect(
            HubRequests.getInstallation(id: "i", at: endpoint).url
                == "http://127.0.0.1:8080/a/b%20c/installations/i?api-version=2017-04")
    }

    @Test("a base URL without a trailing slash gets one")
    func addsSlash() {
        let endpoint = HubEndpoint(hubBaseURL: "http://localhost:9000/hub", hub: "hub")
        #expect(endpoint.hubBaseURL == "http://localhost:9000/hub/")
        #expect(HubEndpoint(hubBaseURL: "http://localhost:9000/hub/", hub: "hub") == endpoint)
    }

    @Test("the connection string's key never reaches the endpoint")
    func noKey() throws {
        let connection = try ConnectionString(parsing: Sample.connectionString)
        let endpoint = HubEndpoint(connection: connection, hub: "myhub", endpointOverride: nil)
        #expect(!String(describing: endpoint).contains(Sample.key))
    }
}

@Suite("HubResponse")
struct HubResponseTests {
    @Test("headers are found ignoring case; the first one wins")
    func headerLookup() {
        let response = HubResponse(
            status: 201,
            headers: [
                HubHeader("location", "https://x/messages/1"),
                HubHeader("Location", "second"),
                HubHeader("TrackingId", "t-1"),
            ])
        #expect(response.header("Location") == "https://x/messages/1")
        #expect(response.header("TRACKINGID") == "t-1")
        #expect(response.header("Retry-After") == nil)
        #expect(response.isSuccess)
        #expect(!HubResponse(status: 404).isSuccess)
    }

    @Test("bodyText decodes UTF-8 and repairs invalid bytes")
    func bodyText() {
        #expect(HubResponse(status: 200, body: Array("héllo".utf8)).bodyText == "héllo")
        #expect(HubResponse(status: 200, body: [0x61, 0xFF]).bodyText == "a\u{FFFD}")
        #expect(HubResponse(status: 204).bodyText == "")
        #expect(HubResponse(status: 204) == HubResponse(status: 204, headers: [], body: []))
    }
}
