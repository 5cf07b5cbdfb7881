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

/// Answers by the row number in the URL's `row` query: statuses scripted per row, no answer at all for the
/// `ambiguous` rows, 201 with the notification's Location otherwise. Each request is held 2 ms, so rows overlap, and
/// `onSend` is awaited with its row while it is in flight.
func rowTransport(
    script: [Int: Int] = [:], ambiguous: Set<Int> = [], onSend: (@Sendable (Int) async -> Void)? = nil
) -> ScriptedTransport {
    ScriptedTransport(
        delay: .milliseconds(2),
        script: { request, _ in
            let row = request.row
            if ambiguous.contains(row) {
                return .failure(
                    TransportError(
                        kind: .ambiguous, message: "no response after the request was sent", attempts: 1,
                        trackingId: "t\(row)"))
            }
            let status = script[row] ?? 201
            return .success(
                HubResponse(
                    status: status,
                    headers: status == 201
                        ? [HubHeader("Location", "http://h/myhub/messages/n\(row)?api-version=2020-06")] : []))
        },
        onRequest: { request, _ in await onSend?(request.row) })
}

extension HubRequest {
    /// The row a test request is for: its URL ends `row=N`.
    var row: Int { Int(url.split(separator: "=").last ?? "") ?? 0 }
}

extension ScriptedTransport {
    /// The rows sent, in the order their requests arrived.
    var rows: [Int] { requests.map(\.row) }
}

private let hub = HubDeclaration(
    name: "h", location: SourceLocation(file: "p.yaml", line: 1, column: 1),
    connection: try! ConnectionString(
        parsing: "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=k3y"),
    hubName: "myhub", endpoint: nil)

/// Runs `rows` items through a `BatchRunner`; `keys` gives a row's idempotency key (none by default).
func runBatch(
    rows: Int, transport: ScriptedTransport, control: BatchControl, concurrency: Int = 4, invalid: Set<Int> = [],
    keys: (Int) -> String? = { _ in nil }, window: Double = 0, dryRun: Bool = false, rate: Double? = nil,
    commitWindow: Duration? = nil, collecting: Bool = false
) async throws -> BatchOutcome {
    let context = StepContext(
        logger: PushlineLogging.logger(label: "t", level: "critical")!, clock: .fixed(Date()),
        document: PipelineDocument(file: "p.yaml", directory: ".", hubs: [hub]), state: RunState(),
        isDryRun: dryRun, transport: transport)
    let session = try context.session(for: hub)
    var runner = BatchRunner(
        session: session, stepIndex: 1, stepId: "send", concurrency: concurrency, rate: rate, control: control,
        isDryRun: dryRun, dedupeWindow: window)
    if let commitWindow { runner.commitWindow = commitWindow }
    var row = 0
    let next = { () throws(StepFailure) -> BatchItem? in
        guard row < rows else { return nil }
        row += 1
        if invalid.contains(row) {
            return BatchItem(
                row: row, origin: "rows.csv:\(row + 1)", digest: "d\(row)",
                work: .invalid("rows.csv:\(row + 1): the row has no 'userId'"))
        }
        let request = HubRequest(
            method: .post, url: "http://h/myhub/messages?row=\(row)", headers: [], body: [], isIdempotent: false,
            summary: "send row \(row)", right: .send)
        return BatchItem(
            row: row, origin: "rows.csv:\(row + 1)", digest: "d\(row)", work: .request(request), key: keys(row))
    }
    // Collecting, a stop is in the outcome; running, it is thrown.
    return collecting ? await runner.collect(next) : try await runner.run(next)
}

@Suite struct BatchRunnerTests {
    @Test func everyRowIsJournalledAndCountedWithBoundedConcurrency() async throws {
        let ledger = MemoryLedger()
        let transport = rowTransport(script: [7: 400])
        let outcome = try await runBatch(
            rows: 50, transport: transport, control: BatchControl(ledger: ledger), invalid: [3])
        // A malformed row is bad (never sent), a refused one failed: each counted apart.
        #expect(outcome.counts == ItemCounts(accepted: 48, failed: 1, unknown: 0, skipped: 0, bad: 1))
        #expect(transport.maxInFlight <= 4)
        #expect(ledger.state(1) == .accepted && ledger.state(3) == .bad && ledger.state(7) == .failed)
        #expect(ledger.entries.withLock { $0[LedgerKey(step: 1, row: 3)]?.attempts } == 0)
        #expect(outcome.failures.map(\.reason).contains("the row has no 'userId'"))
        #expect(outcome.notificationIds.count == 48)
    }

    @Test func aResumeSkipsAcceptedRetriesRetriableAndReportsUnknownWithoutResending() async throws {
        let ledger = MemoryLedger()
        try ledger.markSending(
            (1...4).map { LedgerItem(key: LedgerKey(step: 1, row: $0), stepId: "send", origin: "o", digest: "d\($0)") })
        try await ledger.record([
            LedgerOutcome(
                item: LedgerItem(key: LedgerKey(step: 1, row: 1), stepId: "send", origin: "o", digest: "d1"),
                state: .accepted, notificationId: "n1"),
            LedgerOutcome(
                item: LedgerItem(key: LedgerKey(step: 1, row: 2), stepId: "send", origin: "o", digest: "d2"),
                state: .failed, error: "429", retriable: true),
            LedgerOutcome(
                item: LedgerItem(key: LedgerKey(step: 1, row: 3), stepId: "send", origin: "o", digest: "d3"),
                state: .failed, error: "400", retriable: false),
        ])  // row 4 stays `sending`: the earlier attempt was killed with its request in flight
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 6, transport: transport, control: BatchControl(ledger: ledger, isResume: true))
        #expect(transport.rows.sorted() == [2, 5, 6])
        #expect(outcome.counts == ItemCounts(accepted: 3, failed: 1, unknown: 1, skipped: 1))
        #expect(ledger.state(4) == .unknown)

        let again = rowTransport()
        _ = try await runBatch(
            rows: 6, transport: again, control: BatchControl(ledger: ledger, isResume: true, resendUnknown: true))
        #expect(again.rows == [4])
    }

    @Test func sendingMarksAreGroupedAndEachPrecedesItsRequest() async throws {
        let ledger = MemoryLedger()
        let unmarked = Mutex<[Int]>([])
        let transport = rowTransport(onSend: { row in
            if ledger.state(row) != .sending { unmarked.withLock { $0.append(row) } }
        })
        let outcome = try await runBatch(
            rows: 64, transport: transport, control: BatchControl(ledger: ledger), concurrency: 8)
        #expect(outcome.counts.accepted == 64)
        #expect(unmarked.withLock { $0 } == [])
        let calls = ledger.markCalls.withLock { $0 }
        // The first group fills the window in one transaction; later ones take what finished meanwhile.
        #expect(calls.first == 8)
        #expect(calls.reduce(0, +) == 64)
        #expect(calls.count < 64)
        #expect(transport.maxInFlight <= 8)
    }

    @Test func aGroupCommitRecordsWhatFinishedAndMarksHalfThePoolAtOnce() async throws {
        let ledger = MemoryLedger()
        let unmarked = Mutex<[Int]>([])
        let transport = rowTransport(onSend: { row in
            if ledger.state(row) != .sending { unmarked.withLock { $0.append(row) } }
        })
        // A window no answer outlasts: every group waits for half the pool, whatever the machine's load.
        let outcome = try await runBatch(
            rows: 64, transport: transport, control: BatchControl(ledger: ledger), concurrency: 8,
            commitWindow: .seconds(600))
        #expect(outcome.counts.accepted == 64)
        #expect(unmarked.withLock { $0 } == [], "every item is marked before its request")
        let commits = ledger.commits.withLock { $0 }
        #expect(commits.first == MemoryLedger.GroupCommit(recorded: 0, marked: 8))
        // Until the rows run out, each later group is at least half the pool, with the outcomes of what finished.
        for commit in commits.dropFirst().dropLast() {
            #expect(commit.marked >= 4 && commit.recorded >= 4, "\(commit)")
        }
        #expect(commits.map(\.marked).reduce(0, +) == 64)
        #expect(commits.count <= 1 + 56 / 4 + 1)
        #expect((1...64).allSatisfy { ledger.state($0) == .accepted })
        #expect(transport.maxInFlight <= 8)
    }

    @Test func aGroupCommitThatFailsKeepsTheAnswersItCarriedForTheLastFlush() async throws {
        let ledger = MemoryLedger()
        ledger.failCommit.store(3, ordering: .relaxed)
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 64, transport: transport, control: BatchControl(ledger: ledger), concurrency: 8,
            commitWindow: .seconds(600), collecting: true)
        #expect(outcome.stop?.cause == .journal)
        let commits = ledger.commits.withLock { $0 }
        #expect(commits.count == 3 && commits[2].recorded > 0, "\(commits)")
        // Every row whose request was written was answered, and its answer is in the journal: the failed commit's
        // outcomes were recorded by the last flush, not dropped with the transaction.
        let sent = Set(transport.rows)
        #expect(sent.count == commits[0].marked + commits[1].marked)
        #expect(sent.allSatisfy { ledger.state($0) == .accepted }, "\(sent.sorted().map { ledger.state($0) })")
        #expect(outcome.counts.accepted == sent.count)
        #expect((1...64).filter { !sent.contains($0) }.allSatisfy { ledger.state($0) == nil }, "nothing else marked")
    }

    @Test func pacedItemsAreMarkedOneAtATime() async throws {
        let ledger = MemoryLedger()
        let outcome = try await runBatch(
            rows: 12, transport: rowTransport(), control: BatchControl(ledger: ledger), concurrency: 4, rate: 400)
        #expect(outcome.counts.accepted == 12)
        #expect(ledger.markCalls.withLock { $0 } == Array(repeating: 1, count: 12))
    }

    @Test func anAmbiguousAnswerIsUnknownAndNotRetried() async throws {
        let ledger = MemoryLedger()
        let transport = rowTransport(ambiguous: [2])
        let outcome = try await runBatch(rows: 3, transport: transport, control: BatchControl(ledger: ledger))
        #expect(outcome.counts == ItemCounts(accepted: 2, failed: 0, unknown: 1, skipped: 0))
        #expect(ledger.state(2) == .unknown)
        #expect(outcome.failures.first?.examples == ["rows.csv:3 [TrackingId: t2]"])
    }

    @Test func aStopSignalEndsAdmissionAndInFlightItemsAreRecorded() async throws {
        let ledger = MemoryLedger()
        let stop = StopSignal()
        let transport = rowTransport(onSend: { row in if row == 10 { stop.request() } })
        let outcome = try await runBatch(
            rows: 1000, transport: transport, control: BatchControl(ledger: ledger, stop: stop))
        #expect(outcome.interrupted)
        let sent = transport.rows.count
        #expect(sent < 1000)
        #expect(outcome.counts.accepted == sent)
        #expect(ledger.entries.withLock { $0.values.filter { $0.state == .sending }.count } == 0)
    }

    @Test func aRefusedKeyStopsTheBatchAndSaysWhy() async throws {
        let transport = rowTransport(script: Dictionary(uniqueKeysWithValues: (1...100).map { ($0, 403) }))
        await #expect(throws: StepFailure.self) {
            _ = try await runBatch(
                rows: 100, transport: transport, control: BatchControl(ledger: MemoryLedger()), concurrency: 1)
        }
        #expect(transport.rows.count < 5)
    }

    @Test func aJournalThatCannotBeWrittenStopsBeforeSending() async throws {
        let ledger = MemoryLedger()
        ledger.failWrites.store(true, ordering: .relaxed)
        let transport = rowTransport()
        do {
            _ = try await runBatch(rows: 10, transport: transport, control: BatchControl(ledger: ledger))
            Issue.record("a journal failure must stop the batch")
        } catch let failure as StepFailure {
            #expect(failure.message.hasPrefix("the run journal cannot be written: disk full"))
        }
        #expect(transport.rows.isEmpty)
    }
}
