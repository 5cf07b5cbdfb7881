import HubWire
import Testing

@testable import PipelineCore

@Suite struct DryRunTransportTests {
    @Test func keepsTheFirstRequestsCountsAllAndAnswersLikeTheService() async throws {
        let transport = DryRunTransport(kept: 2)
        var locations: [String?] = []
        for n in 1...5 {
            let request = HubRequest(
                method: .post, url: "http://h/myhub/messages?api-version=2020-06", headers: [],
                body: [UInt8]("\(n)".utf8),
                isIdempotent: false, summary: "send \(n)", right: .send)
            let result = try await transport.execute(request, authorization: { "x" }, policy: RetryPolicy())
            #expect(result.response.status == 201)
            locations.append(result.response.header("Location"))
        }
        #expect(transport.count == 5)
        #expect(transport.requests.map(\.summary) == ["send 1", "send 2"])
        #expect(locations.last == "http://h/myhub/messages/dry-run-5?api-version=2020-06")
        let get = HubRequest(
            method: .get, url: "http://h/myhub/installations/a?api-version=2020-06", headers: [], body: [],
            isIdempotent: true, summary: "get", right: .listen)
        #expect(try await transport.execute(get, authorization: { "x" }, policy: RetryPolicy()).response.status == 200)
    }
}
