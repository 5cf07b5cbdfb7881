import HubClient
import HubWire
import InMemoryTracing
import PipelineCore
import Testing
import Tracing

/// A span of an in-memory tracer, read back as a table of what was set on it.
private struct KeptSpan {
    let span = InMemoryTracer().startSpan("request")
    var attributes: [String: SpanAttribute] {
        var kept: [String: SpanAttribute] = [:]
        // swift-format-ignore: ReplaceForEachWithForLoop
        // (SpanAttributes offers `forEach` but is not a Sequence.)
        span.attributes.forEach { kept[$0] = $1 }
        return kept
    }
    var failure: String? { span.status?.code == .error ? span.status?.message : nil }
}

@Suite("What a hub request's span carries")
struct HubRequestSpanTests {
    let endpoint = HubEndpoint(hubBaseURL: "https://ns.servicebus.windows.net/myhub", hub: "myhub")

    @Test("a request makes a span only under a tracer that records")
    func recordingOnlyUnderATracer() async {
        #expect(!HubRequestSpan.isRecording)
        #expect(await withTracer(InMemoryTracer()) { HubRequestSpan.isRecording })
    }

    @Test("names group requests by method and resource, never by id or handle")
    func names() {
        #expect(HubRequestSpan.name(HubRequests.getInstallation(id: "ipad-1", at: endpoint)) == "NH GET installations")
        #expect(HubRequestSpan.name(HubRequests.notificationDetails(id: "abc", at: endpoint)) == "NH GET messages")
        #expect(HubRequestSpan.name(HubRequests.createRegistrationID(at: endpoint)) == "NH POST registrationIDs")
        let byHandle = HubRequests.registrations(
            handle: "SECRETHANDLE", tag: nil, top: 100, continuation: nil, at: endpoint)
        #expect(HubRequestSpan.name(byHandle) == "NH GET registrations")
    }

    @Test("a send: status, TrackingId, notification id, outcome; the query (a handle) left out")
    func send() {
        let request = HubRequests.registrations(
            handle: "SECRETHANDLE", tag: nil, top: 100, continuation: nil, at: endpoint)
        let span = KeptSpan()
        HubRequestSpan.describe(
            request,
            .success(
                TransportResult(
                    response: HubResponse(status: 200, headers: [HubHeader("TrackingId", "T-1")]),
                    attempts: 2, elapsedMs: 5, trackingId: "T-1")), on: span.span)
        let kept = span.attributes
        #expect(kept["azure.service.request.id"] == .string("T-1"))
        #expect(kept["pushline.attempts"] == .int64(2))
        #expect(kept["url.full"] == .string("https://ns.servicebus.windows.net/myhub/registrations"))
        #expect(!"\(kept)".contains("SECRETHANDLE"))
        #expect(span.failure == nil)

        let refused = KeptSpan()
        let post = HubRequests.createRegistrationID(at: endpoint)
        HubRequestSpan.describe(
            post,
            .success(TransportResult(response: HubResponse(status: 403), attempts: 1, elapsedMs: 1, trackingId: "T-2")),
            on: refused.span)
        #expect(refused.attributes["pushline.outcome"] == .string("refused 403"))
        #expect(refused.failure == "the hub answered 403")

        let lost = KeptSpan()
        HubRequestSpan.describe(
            post, .failure(TransportError(kind: .ambiguous, message: "no answer", attempts: 3, trackingId: "T-3")),
            on: lost.span)
        #expect(lost.attributes["azure.service.request.id"] == .string("T-3"))
        #expect(lost.failure == "no answer")
    }
}
