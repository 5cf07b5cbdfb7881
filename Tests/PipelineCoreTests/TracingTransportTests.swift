import HubWire
import Synchronization
import TestSupport
import Testing

@testable import PipelineCore

/// `TracingTransport`: passes each request through and reports it, signature redacted.
@Suite("Tracing transport")
struct TracingTransportTests {
    static let signature = "nDOo5CZj0P%2fq1sLehhcKhLB3kVSRASfxGsg%2b6YRmhLU%3d"
    static let token =
        "SharedAccessSignature sr=http%3a%2f%2fh%2fmyhub&sig=\(signature)&se=1700000000&skn=DefaultFullSharedAccessSignature"

    static func send() -> HubRequest {
        HubRequest(
            method: .post, url: "http://h/myhub/messages?api-version=2020-06",
            headers: [HubHeader("ServiceBusNotification-Format", "template")], body: [UInt8](#"{"message":"hi"}"#.utf8),
            isIdempotent: false, summary: "send", right: .send)
    }

    /// A transport that never reaches the hub.
    static func unreachable() -> ScriptedTransport {
        ScriptedTransport { _, _ in
            .failure(
                TransportError(kind: .unreachable, message: "connection refused by h:80", attempts: 4, trackingId: "t"))
        }
    }

    @Test("a request is reported once with its answer; the signature never reaches the sink")
    func reportsRedacted() async throws {
        let traces = Mutex<[HubTrace]>([])
        let inner = DryRunTransport()
        let transport = TracingTransport(inner) { trace in traces.withLock { $0.append(trace) } }
        let result = try await transport.execute(Self.send(), authorization: { Self.token }, policy: RetryPolicy())
        #expect(result.response.status == 201)
        #expect(inner.count == 1)
        let trace = try #require(traces.withLock { $0 }.first)
        #expect(traces.withLock { $0.count } == 1)
        #expect(
            trace.requestLines == [
                "POST http://h/myhub/messages?api-version=2020-06",
                "Authorization: SharedAccessSignature sr=http%3a%2f%2fh%2fmyhub&sig=<redacted>&se=1700000000&skn=DefaultFullSharedAccessSignature",
                "ServiceBusNotification-Format: template",
                "",
                #"{"message":"hi"}"#,
            ])
        #expect(trace.status == 201)
        #expect(trace.location == "http://h/myhub/messages/dry-run-1?api-version=2020-06")
        #expect(trace.outcomeLine == "→ not sent (a dry run)", "a dry run's transport makes no attempt")
        #expect(
            HubTrace(requestLines: [], status: 201, location: "http://h/m/1", attempts: 1).outcomeLine
                == "→ 201 (1 attempt) Location: http://h/m/1")
        #expect(!trace.requestLines.joined().contains("nDOo5CZj0P"))
    }

    @Test("a failure is reported with its reason and still thrown")
    func reportsFailure() async throws {
        let traces = Mutex<[HubTrace]>([])
        let transport = TracingTransport(Self.unreachable()) { trace in traces.withLock { $0.append(trace) } }
        await #expect(throws: TransportError.self) {
            _ = try await transport.execute(Self.send(), authorization: { Self.token }, policy: RetryPolicy())
        }
        let trace = try #require(traces.withLock { $0 }.first)
        #expect(trace.status == nil)
        #expect(trace.attempts == 4)
        #expect(trace.outcomeLine == "→ no response (4 attempts): connection refused by h:80")
    }

    @Test("an Authorization value with no signature to find is hidden whole")
    func unknownAuthorizationHidden() async throws {
        let traces = Mutex<[HubTrace]>([])
        let transport = TracingTransport(DryRunTransport()) { trace in traces.withLock { $0.append(trace) } }
        _ = try await transport.execute(Self.send(), authorization: { "Bearer abc.def.ghi" }, policy: RetryPolicy())
        #expect(traces.withLock { $0 }.first?.requestLines[1] == "Authorization: <redacted>")
    }
}
