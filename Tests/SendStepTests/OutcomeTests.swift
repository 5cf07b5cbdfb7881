import Foundation
import HubClient
import HubWire
import PipelineCore
import Synchronization
import Testing
@testable import SendStep

/// Answers sends with 201 and a Location, and telemetry reads from a script per notification id.
final class TelemetryTransport: HubTransport {
    private let state: Mutex<(sent: Int, reads: [String: Int], script: [HubResponse])>
    /// `script` answers the telemetry reads in order; when it runs out, the last answer repeats.
    init(_ script: [HubResponse]) { state = Mutex((0, [:], script)) }
    var reads: Int { state.withLock { $0.reads.values.reduce(0, +) } }

    func execute(_ request: HubRequest, authorization: @escaping @Sendable () -> String, policy: RetryPolicy) async throws(TransportError) -> TransportResult {
        let response = state.withLock { state -> HubResponse in
            if request.method == .get, let id = request.url.split(separator: "/").last?.split(separator: "?").first {
                state.reads[String(id), default: 0] += 1
                return state.script.count > 1 ? state.script.removeFirst() : state.script[0]
            }
            state.sent += 1
            return HubResponse(status: 201, headers: [HubHeader("Location", "http://h/myhub/messages/n\(state.sent)?api-version=2020-06")])
        }
        return TransportResult(response: response, attempts: 1, elapsedMs: 1, trackingId: "t")
    }

    static func details(_ state: String, _ counts: String = "") -> HubResponse {
        HubResponse(status: 200, body: Array("""
            <NotificationDetails xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect"><NotificationId>n1</NotificationId>\
            <State>\(state)</State>\(counts)</NotificationDetails>
            """.utf8))
    }
}

private let twoDelivered = "<ApnsOutcomeCounts><Outcome><Name>Success</Name><Count>2</Count></Outcome>"
    + "<Outcome><Name>ExpiredChannel</Name><Count>1</Count></Outcome></ApnsOutcomeCounts>"

private func outcomeStep(_ outcomes: [(String, Any)], extra: [(String, Any)] = []) throws -> SendStep {
    let (step, errors) = build([("hub", "sports"), ("audience", "fans"), ("properties", [("message", "hi")]), ("outcomes", outcomes)] + extra)
    #expect(errors.isEmpty, "\(errors)")
    var built = try #require(step)
    built.outcomeSleep = { _ in }
    return built
}

@Suite struct SendOutcomeTests {
    @Test func outcomesAreReadUntilFinalAndHandedOn() async throws {
        let step = try outcomeStep([("wait", "10m")])
        let transport = TelemetryTransport([
            HubResponse(status: 404, body: Array("<Error><Code>404</Code><Detail>Telemetry does not exist</Detail></Error>".utf8)),
            TelemetryTransport.details("Processing"), TelemetryTransport.details("Completed", twoDelivered),
        ])
        let result = try await run(step, transport: transport)
        #expect(transport.reads == 3)
        #expect(result.outputs["outcome-state"] == .string("final"))
        #expect(result.outputs["delivered"] == .integer(2))
        #expect(result.outputs["not-delivered"] == .integer(1))
        #expect(result.outputs["dead-channels"] == .integer(1))
        #expect(result.outputs["outcome-counts"] == .list(["apns ExpiredChannel 1", "apns Success 2"], total: 2))
        #expect(result.lines.contains("outcomes (1 notification read, all final):"))
        #expect(result.lines.contains("  APNs: 2 Success, 1 ExpiredChannel (dead-channel)"))
        #expect(!result.reachedNoDevice)
        guard case .object(let fields) = result.data, case .object(let outcomes)? = fields.first(where: { $0.key == "outcomes" })?.value else {
            Issue.record("no outcomes in \(result.data)")
            return
        }
        #expect(outcomes.first { $0.key == "state" }?.value == .string("final"))
    }

    @Test func aWaitThatEndsFirstLeavesThePartialCountsAndSaysWhy() async throws {
        let step = try outcomeStep([("wait", "5s")])
        let transport = TelemetryTransport([TelemetryTransport.details("Processing")])
        let result = try await run(step, transport: transport)
        #expect(result.outputs["outcome-state"] == .string("partial"))
        #expect(result.lines.first { $0.hasPrefix("outcomes so far") }?.contains("1 of 1 notifications were not final (1 still processing)") == true,
                "\(result.lines)")
        // 1 + 2 + 2 seconds of (skipped) sleeps fill the 5 s wait: reads at 0, 1 and 3 s, and at 5 s.
        #expect(transport.reads == 4)
    }

    @Test(arguments: [
        ("<Error><Code>403</Code><Detail>Request rejected because this feature is not enabled for your SKU. Upgrade to Standard.</Detail></Error>",
         "hub 'sports' keeps no per-message telemetry: that needs the Standard tier"),
        ("", "the key for hub 'sports' cannot read telemetry: that needs the Manage right"),
    ])
    func aHubWithoutTelemetryLeavesTheSendDoneAndSaysWhy(_ body: String, _ reason: String) async throws {
        let step = try outcomeStep([("wait", "1m")])
        let result = try await run(step, transport: TelemetryTransport([HubResponse(status: 403, body: Array(body.utf8))]))
        #expect(result.outputs["accepted"] == .integer(1))
        #expect(result.outputs["outcome-state"] == .string("unavailable"))
        #expect(result.lines.contains("outcomes unavailable: \(reason)"), "\(result.lines)")
        #expect(!result.reachedNoDevice)
    }

    @Test func notificationsThatReachNoDeviceMarkTheResult() async throws {
        let step = try outcomeStep([("wait", "1m")])
        let dead = "<FcmV1OutcomeCounts><Outcome><Name>BadChannel</Name><Count>4</Count></Outcome></FcmV1OutcomeCounts>"
        let result = try await run(step, transport: TelemetryTransport([TelemetryTransport.details("Completed", dead)]))
        #expect(result.reachedNoDevice)
        #expect(result.outputs["delivered"] == .integer(0))
        #expect(result.lines.last == "warning: the hub accepted 1 notification, but telemetry shows none reached a device (4 dead channels)")
        let none = try await run(step, transport: TelemetryTransport([TelemetryTransport.details("NoTargetFound")]))
        #expect(none.reachedNoDevice)
        #expect(none.lines.last?.hasSuffix("(none matched a device)") == true)
    }

    @Test func aFinalNotificationWithoutCountsSaysNothingAboutDevices() async throws {
        let step = try outcomeStep([("wait", "1m")])
        let result = try await run(step, transport: TelemetryTransport([TelemetryTransport.details("Completed")]))
        #expect(result.outputs["outcome-state"] == .string("final"))
        #expect(!result.reachedNoDevice)
        #expect(result.outputs.keys.allSatisfy { !$0.hasPrefix("_") }, "no hidden output")
    }

    @Test func aHubThatGivesNoNotificationIdsKeepsNoTelemetry() async throws {
        let step = try outcomeStep([("wait", "1m")])
        // A Free or Basic hub answers a send 201 without a Location.
        let result = try await run(step, transport: RecordingTransport([HubResponse(status: 201)]))
        #expect(result.outputs["accepted"] == .integer(1))
        #expect(result.outputs["outcome-state"] == .string("unavailable"))
        #expect(result.lines.contains { $0.hasPrefix("outcomes unavailable: hub 'sports' gave no notification ids for the 1 it accepted") },
                "\(result.lines)")
    }

    @Test func aStopSignalEndsTheReadingAndKeepsWhatWasRead() async throws {
        var step = try outcomeStep([("wait", "10m")])
        let stop = StopSignal()
        let transport = TelemetryTransport([TelemetryTransport.details("Processing")])
        step.outcomeSleep = { _ in stop.request() }
        let result = try await run(step, transport: transport, batch: BatchControl(stop: stop))
        #expect(transport.reads == 1)
        #expect(result.outputs["outcome-state"] == .string("partial"))
        #expect(result.lines.contains { $0.contains("a stop signal ended the reading") }, "\(result.lines)")
    }

    @Test func theWaitBoundsAPassOverASlowHub() async throws {
        // Four notifications, each read taking 0.3 s, never final: all are read once (1.2 s), and the second pass stops
        // at the 1.5 s wait after its first read (or does not start, on a machine slow enough to use the wait up first).
        let transport = SlowTelemetryTransport(delay: .milliseconds(300))
        let ids = (1...4).map { "n\($0)" }
        let collector = OutcomeCollector(session: try session(transport), sleep: { _ in })
        let read = await collector.collect(ids, of: 4, wait: 1.5)
        #expect(read.state == .partial)
        #expect((4...5).contains(transport.reads), "read \(transport.reads)")
    }

    @Test func aDryRunReadsNothingAndWithoutOutcomesTheStateIsOff() async throws {
        let step = try outcomeStep([("wait", "10m")])
        let transport = TelemetryTransport([TelemetryTransport.details("Completed")])
        let dry = try await run(step, transport: transport, dryRun: true)
        #expect(transport.reads == 0)
        #expect(dry.outputs["outcome-state"] == .string("none"))
        #expect(dry.lines.contains("would read the notifications' outcomes for up to 10m"))
        let plain = try #require(build([("hub", "sports"), ("audience", "fans"), ("properties", [("message", "hi")])]).0)
        #expect(try await run(plain, transport: TelemetryTransport([TelemetryTransport.details("Completed")])).outputs["outcome-state"] == .string("off"))
    }

    @Test func outcomesOptionsAreChecked() {
        let base: [(String, Any)] = [("hub", "sports"), ("audience", "fans"), ("properties", [("message", "hi")])]
        #expect(build(base + [("outcomes", "10m")]).1 == ["'outcomes' must be a mapping such as { wait: 10m }, found a scalar"])
        #expect(build(base + [("outcomes", [("sample", "5")])]).1.first?.contains("'wait'") == true)
        #expect(build(base + [("outcomes", [("wait", "10m"), ("sample", "5000")])]).1
            == ["'sample' must be a whole number from 1 to 1000, found '5000'"])
        #expect(build(base + [("outcomes", [("wait", "7h")])]).1 == ["'wait' must be between 1s and 6h, found '7h'"])
        #expect(build(base + [("outcomes", [("wait", "1m")]), ("test", "true")]).1
            == ["a test send reports each device's outcome itself; `outcomes:` reads telemetry of real sends"])
        #expect(build(base + [("outcomes", [("wait", "1m")]), ("schedule", "in 2h")]).1
            == ["a scheduled send has no outcome until it goes out; read it then with `pushline notification show ID`"])
        let settings = (build(base + [("outcomes", [("wait", "90s")])]).0)?.outcomes
        #expect(settings == OutcomeSettings(wait: 90, sample: 100))
    }

    @Test func aSampleIsSpreadOverTheNotifications() {
        let ids = (0..<10).map { "n\($0)" }
        #expect(OutcomeCollector.sample(ids, size: 4) == ["n0", "n2", "n5", "n7"])
        #expect(OutcomeCollector.sample(ids, size: 20) == ids)
    }
}

/// Answers every telemetry read with Processing, after `delay`.
final class SlowTelemetryTransport: HubTransport {
    private let count = Mutex(0)
    let delay: Duration
    init(delay: Duration) { self.delay = delay }
    var reads: Int { count.withLock { $0 } }

    func execute(_ request: HubRequest, authorization: @escaping @Sendable () -> String, policy: RetryPolicy) async throws(TransportError) -> TransportResult {
        count.withLock { $0 += 1 }
        try? await Task.sleep(for: delay)
        return TransportResult(response: TelemetryTransport.details("Processing"), attempts: 1, elapsedMs: 1, trackingId: "t")
    }
}

/// A session for `hub` over `transport`, as a run makes one.
func session(_ transport: any HubTransport) throws -> HubSession {
    try HubSession(hub: hub, transport: transport, policy: RetryPolicy(), clock: .system)
}
