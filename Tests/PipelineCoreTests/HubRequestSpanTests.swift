import HubWire
import PipelineCore
import Synchronization
import Testing

/// A span that keeps what it was given.
private final class KeptSpan: TraceSpan {
    let attributes = Mutex<[String: TraceValue]>([:])
    let failure = Mutex<String?>(nil)
    func set(_ key: String, _ value: TraceValue) { attributes.withLock { $0[key] = value } }
    func fail(_ message: String) { failure.withLock { $0 = message } }
}

@Suite("What a hub request's span carries")
struct HubRequestSpanTests {
    let endpoint = HubEndpoint(hubBaseURL: "https://ns.servicebus.windows.net/myhub", hub: "myhub")

    @Test("names group requests by method and resource, never by id or handle")
    func names() {
        #expect(HubRequestSpan.name(HubRequests.getInstallation(id: "ipad-1", at: endpoint)) == "NH GET installations")
        #expect(HubRequestSpan.name(HubRequests.notificationDetails(id: "abc", at: endpoint)) == "NH GET messages")
        #expect(HubRequestSpan.name(HubRequests.createRegistrationID(at: endpoint)) == "NH POST registrationIDs")
        let byHandle = HubRequests.registrations(handle: "SECRETHANDLE", tag: nil, top: 100, continuation: nil, at: endpoint)
        #expect(HubRequestSpan.name(byHandle) == "NH GET registrations")
    }

    @Test("a send: status, TrackingId, notification id, outcome; the query (a handle) left out")
    func send() {
        let request = HubRequests.registrations(handle: "SECRETHANDLE", tag: nil, top: 100, continuation: nil, at: endpoint)
        let span = KeptSpan()
        HubRequestSpan.describe(request, .success(TransportResult(response: HubResponse(status: 200, headers: [HubHeader("TrackingId", "T-1")]),
                                                                  attempts: 2, elapsedMs: 5, trackingId: "T-1")), on: span)
        let kept = span.attributes.withLock { $0 }
        #expect(kept["azure.service.request.id"] == .string("T-1"))
        #expect(kept["pushline.attempts"] == .int(2))
        #expect(kept["url.full"] == .string("https://ns.servicebus.windows.net/myhub/registrations"))
        #expect(!"\(kept)".contains("SECRETHANDLE"))
        #expect(span.failure.withLock { $0 } == nil)

        let refused = KeptSpan()
        let post = HubRequests.createRegistrationID(at: endpoint)
        HubRequestSpan.describe(post, .success(TransportResult(response: HubResponse(status: 403), attempts: 1, elapsedMs: 1, trackingId: "T-2")), on: refused)
        #expect(refused.attributes.withLock { $0["pushline.outcome"] } == .string("refused 403"))
        #expect(refused.failure.withLock { $0 } == "the hub answered 403")

        let lost = KeptSpan()
        HubRequestSpan.describe(post, .failure(TransportError(kind: .ambiguous, message: "no answer", attempts: 3, trackingId: "T-3")), on: lost)
        #expect(lost.attributes.withLock { $0["azure.service.request.id"] } == .string("T-3"))
        #expect(lost.failure.withLock { $0 } == "no answer")
    }
}
