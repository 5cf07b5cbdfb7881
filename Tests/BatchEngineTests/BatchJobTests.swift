import Foundation
import HubClient
import HubWire
import PipelineCore
import PushlineLogging
import RunStore
import Synchronization
import TestSupport
import Testing

@testable import BatchEngine

/// Which row was asked to reuse which id.
final class ReuseRecorder: Sendable {
    let ids = Mutex<[Int: String]>([:])
}

/// A job of `steps` requests to row `row`'s URL, one after another; the first answer's Location is its id,
/// journalled before the next request. Records the id it was asked to reuse.
struct ScriptedJob: BatchJob {
    let row: Int
    let steps: Int
    let reused: ReuseRecorder?

    init(row: Int, steps: Int = 2, reused: ReuseRecorder? = nil) {
        self.row = row
        self.steps = steps
        self.reused = reused
    }

    func perform(_ requests: BatchRequests, reusing id: String?) async -> BatchJobResult {
        if let id { reused?.ids.withLock { $0[row] = id } }
        var made = id
        for step in 1...steps {
            let request = HubRequest(
                method: .put, url: "http://h/myhub/things?step=\(step)&row=\(row)", headers: [], body: [],
                isIdempotent: true, summary: "PUT thing \(row) step \(step)", right: .listen)
            switch await requests.expect(request) {
            case .success(let response):
                if made == nil, let location = response.header("Location") {
                    let fresh = NotificationLocation.notificationId(fromLocation: location) ?? "?"
                    if let failure = await requests.keep(id: fresh) { return BatchJobResult(failure.outcome) }
                    made = fresh
                }
            case .failure(let failure):
                return BatchJobResult(failure.outcome, id: made)
            }
        }
        return BatchJobResult(.done(id == nil ? "created" : "updated"), id: made)
    }
}

private let hub = HubDeclaration(
    name: "h", location: SourceLocation(file: "p.yaml", line: 1, column: 1),
    connection: try! ConnectionString(
        parsing: "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=k3y"),
    hubName: "myhub", endpoint: nil)

/// Runs `rows` job items (repeatable, keyed `k<row>`, dedupe as `dedupes` says) and returns the outcome.
func runJobs(
    rows: Int, transport: ScriptedTransport, control: BatchControl, concurrency: Int = 4, steps: Int = 2,
    dedupes: Bool = true,
    repeatable: Bool = true, window: Double = 0, dryRun: Bool = false, kept: Int = 1000,
    reused: ReuseRecorder? = nil, failSourceAt: Int? = nil
) async throws -> BatchOutcome {
    let context = StepContext(
        logger: PushlineLogging.logger(label: "t", level: "critical")!, clock: .fixed(Date()),
        document: PipelineDocument(file: "p.yaml", directory: ".", hubs: [hub]), state: RunState(),
        isDryRun: dryRun, transport: transport)
    var runner = BatchRunner(
        session: try context.session(for: hub), stepIndex: 1, stepId: "register", concurrency: concurrency, rate: nil,
        control: control, isDryRun: dryRun, dedupeWindow: window)
    runner.keptItems = kept
    runner.wording = BatchRunner.Wording(item: "device", thing: "registration")
    var row = 0
    return await runner.collect { () throws(StepFailure) -> BatchItem? in
        guard row < rows else { return nil }
        row += 1
        if row == failSourceAt { throw StepFailure("devices.csv: the file became unreadable") }
        var item = BatchItem(
            row: row, origin: "devices.csv:\(row + 1)", digest: "d\(row)",
            work: .job(ScriptedJob(row: row, steps: steps, reused: reused)),
            key: "k\(row)", target: "device-\(row)")
        item.label = "device-\(row)"
        item.dedupes = dedupes
        item.repeatable = repeatable
        return item
    }
}

@Suite struct BatchJobTests {
    @Test func aJobIsOneItemOfSeveralRequestsAndItsIdIsJournalledBeforeItIsUsed() async throws {
        let ledger = MemoryLedger()
        let transport = rowTransport()
        let outcome = try await runJobs(rows: 10, transport: transport, control: BatchControl(ledger: ledger), steps: 3)
        #expect(outcome.counts.accepted == 10 && outcome.counts.total == 10)
        #expect(outcome.requests == 30)
        #expect(transport.rows.count == 30)
        #expect(outcome.stop == nil)
        for row in 1...10 {
            let entry = try #require(try ledger.entry(LedgerKey(step: 1, row: row)))
            #expect(entry.state == .accepted && entry.notificationId == "n\(row)" && entry.attempts == 1)
        }
        // Item reports in row order whatever order the items finished in, with the job's own word and id.
        #expect(outcome.items.map(\.row) == Array(1...10))
        #expect(outcome.items.first == BatchItemReport(row: 1, label: "device-1", outcome: "created", id: "n1"))
        #expect(transport.maxInFlight <= 4)
    }

    @Test func aRepeatableItemLeftSendingIsDoneAgainUnderItsJournalledIdNotReportedUnknown() async throws {
        let ledger = MemoryLedger()
        let item = { (row: Int) in
            LedgerItem(
                key: LedgerKey(step: 1, row: row), stepId: "register", origin: "devices.csv:\(row + 1)",
                digest: "d\(row)")
        }
        try ledger.markSending([item(1), item(2)])
        try ledger.assignId("reg-old-1", to: LedgerKey(step: 1, row: 1))  // row 2 never got an id
        try await ledger.record([LedgerOutcome(item: item(3), state: .accepted, notificationId: "n3")])
        let reused = ReuseRecorder()
        let transport = rowTransport()
        let outcome = try await runJobs(
            rows: 3, transport: transport, control: BatchControl(ledger: ledger, isResume: true), reused: reused)
        #expect(reused.ids.withLock { $0 } == [1: "reg-old-1"])
        #expect(outcome.counts.accepted == 2 && outcome.counts.skipped == 1 && outcome.counts.unknown == 0)
        #expect(try ledger.entry(LedgerKey(step: 1, row: 1))?.notificationId == "reg-old-1")
        #expect(try ledger.entry(LedgerKey(step: 1, row: 1))?.attempts == 2)
        #expect(Set(transport.rows) == [1, 2], "the accepted row 3 is not sent again")
        #expect(outcome.items.map(\.outcome) == ["updated", "created", "skipped"])
    }

    @Test func onlyItemsThatDedupeAreHeldBackByAnotherRunsKey() async throws {
        for dedupes in [true, false] {
            let ledger = MemoryLedger()
            ledger.otherRuns.withLock {
                $0["k1"] = PriorSend(
                    runId: "r0", at: Date().timeIntervalSince1970, state: .accepted, origin: "devices.csv:2",
                    sameRun: false)
            }
            let transport = rowTransport()
            let outcome = try await runJobs(
                rows: 2, transport: transport, control: BatchControl(ledger: ledger), dedupes: dedupes, window: 3600)
            #expect(outcome.counts.duplicates == (dedupes ? 1 : 0))
            #expect(outcome.counts.accepted == (dedupes ? 1 : 2))
            if dedupes {
                #expect(outcome.firstFailures.isEmpty)
                #expect(outcome.items.first?.reason?.hasPrefix("already sent by run r0 (devices.csv:2 at ") == true)
            }
        }
    }

    @Test func aJobsHubWideFailureStopsAdmissionAndTheStopIsTyped() async throws {
        let ledger = MemoryLedger()
        let transport = rowTransport(script: [1: 401])
        let outcome = try await runJobs(
            rows: 20, transport: transport, control: BatchControl(ledger: ledger), concurrency: 1)
        let stop = try #require(outcome.stop)
        #expect(stop.cause == .hub && stop.message.hasPrefix("hub 'h': "))
        #expect(outcome.counts.failed == 1 && outcome.counts.total == 1, "no further item was started")
        #expect(outcome.firstFailures.map(\.label) == ["device-1"])
        #expect(try ledger.entry(LedgerKey(step: 1, row: 1))?.state == .failed)
        #expect(try ledger.entry(LedgerKey(step: 1, row: 2)) == nil)
    }

    @Test func theFirstFailuresAreKeptInRowOrderAndReportsStayBounded() async throws {
        let failing = Dictionary(uniqueKeysWithValues: stride(from: 2, through: 40, by: 2).map { ($0, 400) })
        let outcome = try await runJobs(
            rows: 40, transport: rowTransport(script: failing), control: BatchControl(), concurrency: 8,
            steps: 1, kept: 10)
        #expect(outcome.counts.failed == 20 && outcome.counts.accepted == 20)
        #expect(outcome.firstFailures.map(\.row) == [2, 4, 6, 8, 10])
        #expect(outcome.items.map(\.row) == Array(1...10))
        #expect(outcome.firstFailures.allSatisfy { $0.reason?.hasPrefix("PUT thing \($0.row) step 1: ") == true })
    }

    @Test func aDryRunShowsTheFirstRequestsInItemOrderAndCountsThemAll() async throws {
        let outcome = try await runJobs(
            rows: 12, transport: rowTransport(), control: BatchControl(), concurrency: 8, steps: 2, dryRun: true)
        #expect(outcome.requests == 24)
        #expect(outcome.counts.planned == 12 && outcome.counts.accepted == 0)
        let shown = outcome.dryRunLines.filter { $0.hasPrefix("PUT ") }
        #expect(
            shown == [
                "PUT http://h/myhub/things?step=1&row=1", "PUT http://h/myhub/things?step=2&row=1",
                "PUT http://h/myhub/things?step=1&row=2",
            ])
    }

    @Test func anUnreadableSourceStopsAdmissionAfterWhatWasRead() async throws {
        let ledger = MemoryLedger()
        let outcome = try await runJobs(
            rows: 10, transport: rowTransport(), control: BatchControl(ledger: ledger), concurrency: 2,
            failSourceAt: 4)
        #expect(outcome.stop == BatchStop(.source, message: "devices.csv: the file became unreadable"))
        #expect(outcome.counts.accepted == 3)
    }

    @Test func aJournalFailureIsTheStopAheadOfAnyOther() async throws {
        let ledger = MemoryLedger()
        ledger.failWrites.store(true, ordering: .relaxed)
        let transport = rowTransport()
        let outcome = try await runJobs(rows: 5, transport: transport, control: BatchControl(ledger: ledger))
        #expect(outcome.stop?.cause == .journal)
        #expect(outcome.stop?.message.contains("disk full") == true)
        #expect(transport.rows.isEmpty, "nothing is sent that cannot be marked sending first")
    }

    @Test func aJobsJournalFailureIsTheStopEvenAfterAHubStop() async throws {
        let ledger = MemoryLedger()
        ledger.failAssign.store(true, ordering: .relaxed)
        // Row 1 is refused hub-wide first; row 2, slower, is accepted but its id cannot be journalled. Row 2 waits for row 1
        // to be answered, then two seconds more (asleep, holding no thread), so the runner takes row 1's refusal first
        // even on a loaded machine. Nothing outside the runner shows when it has taken it: row 1's outcome is journalled
        // only with row 2's.
        final class Flag: Sendable { let raised = Atomic<Bool>(false) }
        let answered = Flag()
        let onSend: @Sendable (Int) async -> Void = { row in
            if row == 1 { answered.raised.store(true, ordering: .relaxed) }
            guard row == 2 else { return }
            var waited = 0
            while !answered.raised.load(ordering: .relaxed), waited < 6_000 {
                try? await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            try? await Task.sleep(for: .seconds(2))
        }
        let transport = rowTransport(script: [1: 401], onSend: onSend)
        let outcome = try await runJobs(
            rows: 2, transport: transport, control: BatchControl(ledger: ledger), concurrency: 2, steps: 1)
        #expect(outcome.stop?.cause == .journal)
        #expect(
            outcome.stop?.message.hasPrefix("disk full") == true || outcome.stop?.message.contains("disk full") == true)
        #expect(outcome.stop?.message.contains("before that: hub 'h': ") == true, "the hub stop is kept in the message")
    }
}
