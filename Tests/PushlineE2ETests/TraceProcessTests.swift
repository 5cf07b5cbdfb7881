import CommandTestSupport
import Foundation
import PasswordHashing
import Testing

/// Traces of a real run, received by an OTLP receiver the test starts on loopback: a run span, a span per step under
/// it, a span per hub request under its step with NH's TrackingId and the notification id; nothing at all when the
/// endpoint is not set.
extension PipelineRunProcessTests {
    @Test("a run exports its spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set, and nothing when it is not")
    func runSpans() async throws {
        let directory = try emulatorScratch("traces")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func pipeline(_ message: String) -> String {
            """
            version: 1
            hubs:
              main: { connection: "${env:NH_CONNECTION}", hub: myhub }
            templates:
              alert: { platform: apns, body: '{"aps":{"alert":"$(m)"}}' }
            steps:
              - register:
                  hub: main
                  installations:
                    - { installationId: ipad-1, platform: apns, pushChannel: "\(String(format: "%064X", 1))", tags: [news] }
              - id: news
                send: { hub: main, format: apple, template: alert, audience: news, properties: { m: "\(message)" } }
              - outcomes: { hub: main, of: news, wait: 60s }
            """
        }
        try pipeline("traced").write(toFile: directory + "/traced.yaml", atomically: true, encoding: .utf8)
        try pipeline("untraced").write(toFile: directory + "/untraced.yaml", atomically: true, encoding: .utf8)
        let (emulator, _, strings) = try await emulator(["--config", directory + "/emulator.yaml"])
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let receiver = OTLPReceiver()
        let endpoint = try await receiver.start()
        let journal = ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"]

        // Not set: no span, no request to the receiver.
        let (plain, plainOutput) = try await run(
            ["run", directory + "/untraced.yaml"], connection: full, environment: journal)
        #expect(plain == 0, "\(plainOutput)")
        #expect(receiver.requests == 0)

        let traced = journal.merging([
            "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
            "OTEL_PROPAGATORS": "tracecontext,baggage",
        ]) { a, _ in a }
        let (status, output) = try await run(
            ["run", directory + "/traced.yaml", "--report", directory + "/report.json"], connection: full,
            environment: traced)
        #expect(status == 0, "\(output)")
        #expect(
            output.contains("pushline: warning: tracing: OTEL_PROPAGATORS baggage not supported; using tracecontext"),
            "\(output)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        let runId = try #require(report["runId"] as? String)
        let send = try #require((report["steps"] as? [[String: Any]])?.dropLast().last?["outputs"] as? [String: Any])
        let notificationId = try #require((send["notification-ids"] as? [String])?.first)
        let trackingId = try #require((send["tracking-ids"] as? [String])?.first)

        let spans = receiver.spans
        let run = try #require(spans.first { $0.name == "pushline run traced" }, "\(spans.map(\.name))")
        #expect(run.parentSpanId == nil)
        #expect(run.attributes["pushline.run.id"] == runId)
        #expect(run.attributes["pushline.run.status"] == "succeeded")
        let steps = spans.filter { $0.parentSpanId == run.spanId }
        #expect(
            steps.map(\.name).sorted() == ["step 1 register", "step 2 send", "step 3 outcomes"], "\(spans.map(\.name))")
        #expect(spans.allSatisfy { $0.traceId == run.traceId })
        let sendStep = try #require(steps.first { $0.name == "step 2 send" })
        #expect(sendStep.attributes["nh.notification.ids"] == notificationId)
        let outcomesStep = try #require(steps.first { $0.name == "step 3 outcomes" })
        #expect(outcomesStep.attributes["pushline.output.outcome-state"] == "final")
        #expect(outcomesStep.attributes["pushline.output.delivered"] == "1")
        let requests = spans.filter { $0.parentSpanId == sendStep.spanId || $0.parentSpanId == outcomesStep.spanId }
        let post = try #require(
            requests.first { $0.attributes["http.request.method"] == "POST" }, "\(requests.map(\.name))")
        #expect(post.kind == 3, "a client span")
        #expect(post.name == "NH POST messages")
        #expect(post.attributes["azure.service.request.id"] == trackingId)
        #expect(post.attributes["nh.notification.id"] == notificationId)
        #expect(post.attributes["http.response.status_code"] == "201")
        #expect(post.attributes["pushline.outcome"] == "accepted")
        // The outcome read: a telemetry GET of that notification, ending Completed.
        let reads = requests.filter {
            $0.attributes["http.request.method"] == "GET" && $0.attributes["nh.notification.id"] == notificationId
        }
        #expect(reads.contains { $0.attributes["pushline.outcome"] == "Completed" }, "\(reads.map(\.attributes))")
        let register = try #require(steps.first { $0.name == "step 1 register" })
        #expect(spans.contains { $0.parentSpanId == register.spanId && $0.attributes["http.request.method"] == "PUT" })
        // No secret in any span.
        let text = spans.map { "\($0.name) \($0.attributes)" }.joined(separator: "\n")
        #expect(!text.contains("LocalEmulatorSampleKey0NotASecret") && !text.contains("sig="), "\(text)")
        #expect(receiver.strays == 0)
        await receiver.stop()
        #expect(try await emulator.stop() == 0)
    }
}

extension ServeProcessTests {
    @Test("serve exports a server span per request, its hub requests under it, and no credential")
    func serveSpans() async throws {
        let (emulator, _, connection) = try await Self.startEmulator()
        let receiver = OTLPReceiver()
        let endpoint = try await receiver.start()
        let users = FileManager.default.temporaryDirectory.appendingPathComponent("pushline-users-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: users) }
        try "alice:\(PasswordHash.make("alice-secret", cost: 4))\n".write(
            toFile: users, atomically: true, encoding: .utf8)
        let server = try PushlineProcess(
            ["serve", Self.serviceFile, "--port", "0"],
            environment: [
                "NH_CONNECTION": connection, "NH_HUB": "myhub", "PUSHLINE_USERS": users,
                "PUSHLINE_API_KEY": "backend-key-0123456789abcdef",
                "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
            ])
        let started = try await server.waitForOutput(containing: "stop with Ctrl-C")
        let base = try #require(
            started.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        let token = String(repeating: "C", count: 64)
        let (created, idText) = try await rawHTTP(
            "POST", "\(base)api/register?handle=\(token)", headers: basic("alice", "alice-secret"))
        #expect(created == 200, "\(idText)")
        #expect(try await server.stop() == 0)

        let spans = receiver.spans
        let request = try #require(spans.first { $0.name == "serve POST /api/register" }, "\(spans.map(\.name))")
        #expect(request.kind == 2, "a server span")
        #expect(request.attributes["http.response.status_code"] == "200")
        let hub = spans.filter { $0.parentSpanId == request.spanId }
        #expect(
            !hub.isEmpty && hub.allSatisfy { $0.kind == 3 && $0.attributes["azure.service.request.id"] != nil },
            "\(hub.map(\.name))")
        let text = spans.map { "\($0.name) \($0.attributes)" }.joined(separator: "\n")
        for secret in ["alice-secret", token, connection.components(separatedBy: "SharedAccessKey=").last ?? "-"] {
            #expect(!text.contains(secret))
        }
        await receiver.stop()
        #expect(try await emulator.stop() == 0)
    }
}
