import Foundation
import HubClient
import HubWire
import PipelineCore
import RunStore
import Synchronization
import TestSupport
import Testing

@testable import OutcomesStep
@testable import SendStep

/// A transport for a send and the reads of its outcomes: sends are answered 201 with a Location (n1, n2, … by send),
/// telemetry reads from `script` in order (when it runs out, the last answer repeats).
enum TelemetryTransport {
    static func make(_ script: [HubResponse]) -> ScriptedTransport {
        let state = Counted(script)
        return ScriptedTransport { request, _ in
            .success(request.method == .get ? state.nextRead() : state.sent())
        }
    }

    /// Answers every telemetry read with Processing, after `delay`.
    static func slow(delay: Duration) -> ScriptedTransport {
        ScriptedTransport(delay: delay) { _, _ in .success(details("Processing")) }
    }

    private final class Counted: Sendable {
        private let state: Mutex<(sent: Int, script: [HubResponse])>
        init(_ script: [HubResponse]) { state = Mutex((0, script)) }

        func nextRead() -> HubResponse {
            state.withLock { $0.script.count > 1 ? $0.script.removeFirst() : $0.script[0] }
        }

        func sent() -> HubResponse {
            let number = state.withLock {
                $0.sent += 1
                return $0.sent
            }
            return HubResponse(
                status: 201, headers: [HubHeader("Location", "http://h/myhub/messages/n\(number)?api-version=2020-06")])
        }
    }

    static func details(_ state: String, _ counts: String = "") -> HubResponse {
        HubResponse(
            status: 200,
            body: Array(
                """
                <NotificationDetails xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect"><NotificationId>n1</NotificationId>\
                <State>\(state)</State>\(counts)</NotificationDetails>
                """.utf8))
    }
}

private let twoDelivered =
    "<ApnsOutcomeCounts><Outcome><Name>Success</Name><Count>2</Count></Outcome>"
    + "<Outcome><Name>ExpiredChannel</Name><Count>1</Count></Outcome></ApnsOutcomeCounts>"

/// An `outcomes` step of step `digest` with `options` (its hub given), and what building it reported.
private func outcomesStep(_ options: [(String, Any)]) -> (OutcomesStep?, [String]) {
    let (step, found) = diagnostics(OutcomesStep.self, [("hub", "sports"), ("of", "digest")] + options)
    return (step, found.filter { $0.severity == .error }.map(\.message))
}

/// A send to the fans (step 1, `id: digest`), then an `outcomes` step of it with `options`, as a run of the two does.
private func sendThenRead(
    _ options: [(String, Any)], transport: any HubTransport, dryRun: Bool = false, batch: BatchControl = BatchControl(),
    sleep: @escaping @Sendable (Double) async throws -> Void = { _ in }
) async throws -> (sent: StepResult, read: StepResult) {
    let send = try #require(build([("hub", "sports"), ("audience", "fans"), ("properties", [("message", "hi")])]).0)
    let (built, errors) = outcomesStep(options)
    #expect(errors.isEmpty, "\(errors)")
    var reader = try #require(built)
    reader.sleep = sleep
    let sent = try await run(send, transport: transport, dryRun: dryRun, batch: batch)
    var earlier = EarlierOutputs()
    earlier.record(sent.outputs, of: "digest", at: 1)
    return (sent, try await run(reader, transport: transport, dryRun: dryRun, batch: batch, earlier: earlier))
}

@Suite struct SendThenOutcomesTests {
    @Test func outcomesAreReadUntilFinalAndHandedOn() async throws {
        let transport = TelemetryTransport.make([
            HubResponse(
                status: 404,
                body: Array("<Error><Code>404</Code><Detail>Telemetry does not exist</Detail></Error>".utf8)),
            TelemetryTransport.details("Processing"), TelemetryTransport.details("Completed", twoDelivered),
        ])
        let result = try await sendThenRead([("wait", "10m")], transport: transport).read
        #expect(transport.reads == 3)
        #expect(result.outputs["outcome-state"] == .string("final"))
        #expect(result.outputs["delivered"] == .integer(2))
        #expect(result.outputs["not-delivered"] == .integer(1))
        #expect(result.outputs["dead-channels"] == .integer(1))
        #expect(result.outputs["outcome-counts"] == .list(["apns ExpiredChannel 1", "apns Success 2"], total: 2))
        #expect(result.lines.contains("outcomes (1 notification read, all final):"))
        #expect(result.lines.contains("  APNs: 2 Success, 1 ExpiredChannel (dead-channel)"))
        #expect(!result.reachedNoDevice)
        guard case .object(let fields) = result.data,
            case .object(let outcomes)? = fields.first(where: { $0.key == "outcomes" })?.value
        else {
            Issue.record("no outcomes in \(result.data)")
            return
        }
        #expect(outcomes.first { $0.key == "state" }?.value == .string("final"))
    }

    @Test func aWaitThatEndsFirstLeavesThePartialCountsAndSaysWhy() async throws {
        let transport = TelemetryTransport.make([TelemetryTransport.details("Processing")])
        let result = try await sendThenRead([("wait", "5s")], transport: transport).read
        #expect(result.outputs["outcome-state"] == .string("partial"))
        #expect(
            result.lines.first { $0.hasPrefix("outcomes so far") }?.contains(
                "1 of 1 notifications were not final (1 still processing)") == true,
            "\(result.lines)")
        // 1 + 2 + 2 seconds of (skipped) sleeps fill the 5 s wait: reads at 0, 1 and 3 s, and at 5 s.
        #expect(transport.reads == 4)
    }

    @Test(arguments: [
        (
            "<Error><Code>403</Code><Detail>Request rejected because this feature is not enabled for your SKU. Upgrade to Standard.</Detail></Error>",
            "hub 'sports' keeps no per-message telemetry: that needs the Standard tier"
        ),
        ("", "the key for hub 'sports' cannot read telemetry: that needs the Manage right"),
    ])
    func aHubWithoutTelemetryLeavesTheSendDoneAndSaysWhy(_ body: String, _ reason: String) async throws {
        let (sent, result) = try await sendThenRead(
            [("wait", "1m")], transport: TelemetryTransport.make([HubResponse(status: 403, body: Array(body.utf8))]))
        #expect(sent.outputs["accepted"] == .integer(1))
        #expect(result.outputs["outcome-state"] == .string("unavailable"))
        #expect(result.lines.contains("outcomes unavailable: \(reason)"), "\(result.lines)")
        #expect(!result.reachedNoDevice)
    }

    @Test func notificationsThatReachNoDeviceMarkTheResult() async throws {
        let dead = "<FcmV1OutcomeCounts><Outcome><Name>BadChannel</Name><Count>4</Count></Outcome></FcmV1OutcomeCounts>"
        let result = try await sendThenRead(
            [("wait", "1m")], transport: TelemetryTransport.make([TelemetryTransport.details("Completed", dead)])
        ).read
        #expect(result.reachedNoDevice)
        #expect(result.outputs["delivered"] == .integer(0))
        #expect(
            result.lines.last
                == "warning: the hub accepted 1 notification, but telemetry shows none reached a device (4 dead channels)"
        )
        let none = try await sendThenRead(
            [("wait", "1m")], transport: TelemetryTransport.make([TelemetryTransport.details("NoTargetFound")])
        ).read
        #expect(none.reachedNoDevice)
        #expect(none.lines.last?.hasSuffix("(none matched a device)") == true)
    }

    @Test func aFinalNotificationWithoutCountsSaysNothingAboutDevices() async throws {
        let result = try await sendThenRead(
            [("wait", "1m")], transport: TelemetryTransport.make([TelemetryTransport.details("Completed")])
        ).read
        #expect(result.outputs["outcome-state"] == .string("final"))
        #expect(!result.reachedNoDevice)
        #expect(result.outputs.keys.allSatisfy { !$0.hasPrefix("_") }, "no hidden output")
    }

    @Test func aHubThatGivesNoNotificationIdsKeepsNoTelemetry() async throws {
        // A Free or Basic hub answers a send 201 without a Location.
        let (sent, result) = try await sendThenRead(
            [("wait", "1m")], transport: ScriptedTransport([HubResponse(status: 201)]))
        #expect(sent.outputs["accepted"] == .integer(1))
        #expect(result.outputs["outcome-state"] == .string("unavailable"))
        #expect(
            result.lines.contains {
                $0.hasPrefix("outcomes unavailable: hub 'sports' gave no notification ids for the 1 it accepted")
            },
            "\(result.lines)")
    }

    @Test func aStopSignalEndsTheReadingAndKeepsWhatWasRead() async throws {
        let stop = StopSignal()
        let transport = TelemetryTransport.make([TelemetryTransport.details("Processing")])
        let result = try await sendThenRead(
            [("wait", "10m")], transport: transport, batch: BatchControl(stop: stop), sleep: { _ in stop.request() }
        ).read
        #expect(transport.reads == 1)
        #expect(result.outputs["outcome-state"] == .string("partial"))
        #expect(result.lines.contains { $0.contains("a stop signal ended the reading") }, "\(result.lines)")
    }

    @Test func theWaitBoundsAPassOverASlowHub() async throws {
        // Four notifications, each read taking 0.3 s, never final: all are read once (1.2 s), and the second pass stops
        // at the 1.5 s wait after its first read (or does not start, on a machine slow enough to use the wait up first).
        let transport = TelemetryTransport.slow(delay: .milliseconds(300))
        let ids = (1...4).map { "n\($0)" }
        let collector = OutcomeCollector(session: try session(transport), sleep: { _ in })
        let read = await collector.collect(ids, of: 4, wait: 1.5)
        #expect(read.state == .partial)
        #expect((4...5).contains(transport.reads), "read \(transport.reads)")
    }

    @Test func aDryRunReadsNothingAndASendReadsNoOutcomes() async throws {
        let transport = TelemetryTransport.make([TelemetryTransport.details("Completed")])
        let (sent, dry) = try await sendThenRead([("wait", "10m")], transport: transport, dryRun: true)
        #expect(transport.reads == 0)
        #expect(dry.outputs["outcome-state"] == .string("none"))
        #expect(dry.lines.contains("would read the notifications' outcomes for up to 10m"))
        // Reading outcomes is a step of its own: a send hands on no outcome outputs.
        #expect(sent.outputs["outcome-state"] == nil)
        #expect(
            try await run(
                try #require(build([("hub", "sports"), ("audience", "fans"), ("properties", [("message", "hi")])]).0),
                transport: transport
            ).outputs["outcome-state"] == nil)
        #expect(transport.reads == 0)
    }

    @Test func outcomesOptionsAreChecked() {
        #expect(
            outcomesStep([("sample", "5000")]).1 == ["'sample' must be a whole number from 1 to 1000, found '5000'"])
        #expect(outcomesStep([("wait", "7h")]).1 == ["'wait' must be between 1s and 6h, found '7h'"])
        #expect(diagnostics(OutcomesStep.self, [("hub", "sports")]).1.map(\.message) == ["missing required key 'of'"])
        #expect(
            diagnostics(OutcomesStep.self, [("hub", "sports"), ("of", "not an id")]).1.map(\.message)
                == ["'of' must be the id of an earlier step, found 'not an id'"])
        let step = outcomesStep([("wait", "90s")]).0
        #expect(step?.wait == 90 && step?.sample == 100 && step?.of == "digest")
        #expect(step?.access.map(\.right) == [.manage], "telemetry needs Manage")
    }

    @Test func aRunWithAJournalReadsASampleOfEveryIdItHolds() async throws {
        let (built, _) = outcomesStep([("wait", "1m"), ("sample", "3")])
        var step = try #require(built)
        step.sleep = { _ in }
        // The send handed on its first 2 ids of 10; the journal holds all 10, and the sample is spread over them.
        let ledger = NotificationLedger(ids: (1...10).map { "n\($0)" })
        var earlier = EarlierOutputs()
        earlier.record(
            ["notification-ids": .list(["n1", "n2"], total: 10), "accepted": .integer(10)], of: "digest", at: 4)
        let transport = TelemetryTransport.make([TelemetryTransport.details("Completed", twoDelivered)])
        let result = try await run(step, transport: transport, batch: BatchControl(ledger: ledger), earlier: earlier)
        #expect(
            ledger.asked.withLock { $0 } == [4],
            "the journal is asked for the items of the step `of` names, by its place")
        #expect(transport.readIds == ["n1", "n4", "n7"])
        #expect(result.summary == "delivery outcomes of step 'digest' (a sample of 3 of 10 read): 6 delivered, 3 not")
    }

    @Test func withoutAJournalASampleOfAPartListSaysSo() async throws {
        let (built, _) = outcomesStep([("wait", "1m")])
        var step = try #require(built)
        step.sleep = { _ in }
        var earlier = EarlierOutputs()
        earlier.record(
            ["notification-ids": .list(["n1", "n2"], total: 10), "accepted": .integer(10)], of: "digest", at: 1)
        let transport = TelemetryTransport.make([TelemetryTransport.details("Completed", twoDelivered)])
        let result = try await run(step, transport: transport, earlier: earlier)
        #expect(transport.readIds == ["n1", "n2"])
        #expect(
            result.lines.first
                == "the sample is of the first 2 of the 10 ids step 'digest' handed on: this run keeps no journal to read the rest from"
        )
    }

    @Test func aSampleIsSpreadOverTheNotifications() {
        let ids = (0..<10).map { "n\($0)" }
        #expect(OutcomeCollector.sample(ids, size: 4) == ["n0", "n2", "n5", "n7"])
        #expect(OutcomeCollector.sample(ids, size: 20) == ids)
    }
}

/// A run journal that holds `ids` for every step it is asked about, and records which steps it was asked about.
final class NotificationLedger: ItemLedger {
    let ids: [String]
    let asked = Mutex<[Int]>([])
    init(ids: [String]) { self.ids = ids }
    let isWritable = true
    func notificationIds(step: Int, sample size: Int) throws(LedgerError) -> NotificationSample? {
        asked.withLock { $0.append(step) }
        return NotificationSample(
            ids: NotificationSample.picks(of: ids.count, size: size).map { ids[$0] }, total: ids.count)
    }
    func entry(_ key: LedgerKey) throws(LedgerError) -> LedgerEntry? { nil }
    func markSending(_ items: [LedgerItem]) throws(LedgerError) {}
    func record(_ outcomes: [LedgerOutcome], skips: [SkipRange]) throws(LedgerError) {}
    func markSending(_ item: LedgerItem, creating id: String) throws(LedgerError) {}
    func assignId(_ id: String, to key: LedgerKey) throws(LedgerError) {}
    func priorSend(key: String, since: Double, excluding: LedgerKey) throws(LedgerError) -> PriorSend? { nil }
}

/// A session for `hub` over `transport`, as a run makes one.
func session(_ transport: any HubTransport) throws -> HubSession {
    try HubSession(hub: hub, transport: transport, policy: RetryPolicy(), clock: .system)
}

extension ScriptedTransport {
    /// The telemetry reads so far.
    var reads: Int { requests.filter { $0.method == .get }.count }

    /// The notification ids read, each once, in the order first read.
    var readIds: [String] {
        var ids: [String] = []
        for request in requests where request.method == .get {
            guard let id = request.url.split(separator: "/").last?.split(separator: "?").first.map(String.init),
                !ids.contains(id)
            else { continue }
            ids.append(id)
        }
        return ids
    }
}
