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

/// Duplicate protection across runs: an item whose idempotency key another run accepted within the
/// window is not sent; `--again` sends it and counts it; two rows of one run with one key send once.
@Suite struct BatchDedupeTests {
    private func sentBefore(
        _ ledger: MemoryLedger, _ key: String, state: ItemState = .accepted, ago: Double = 60, item: LedgerKey? = nil
    ) {
        ledger.otherRuns.withLock {
            $0[key] = PriorSend(
                runId: "20261123-030000-aaaaaa", at: Date().timeIntervalSince1970 - ago, state: state,
                origin: "rows.csv:9", sameRun: false, notificationId: "n-\(key)", key: item)
        }
    }

    @Test func rowsAnotherRunSentAreJournalledAsRangesNotOneByOne() async throws {
        let ledger = MemoryLedger()
        for row in [1, 2, 3, 5, 6, 8] {
            sentBefore(ledger, "k\(row)", item: LedgerKey(step: 1, row: row == 8 ? 20 : row))
        }
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 8, transport: transport, control: BatchControl(ledger: ledger), keys: { "k\($0)" }, window: 3600)
        #expect(transport.rows.sorted() == [4, 7])
        #expect(outcome.counts == ItemCounts(accepted: 2, duplicates: 6))
        #expect(ledger.state(2) == nil && ledger.state(4) == .accepted, "a skipped row has no record of its own")
        #expect(ledger.skips.withLock { $0 }.map(\.rows) == [1...3, 5...6, 8...8])
        #expect(ledger.skips.withLock { $0 }.last?.prior == LedgerKey(step: 1, row: 20))
        let group = try #require(outcome.failures.first)
        #expect(group.reason == "already sent by run 20261123-030000-aaaaaa" && group.count == 6)
        #expect(
            group.examples.first?.hasPrefix("rows.csv:2: already sent by run 20261123-030000-aaaaaa (rows.csv:9 at ")
                == true)
    }

    @Test func theNextRowsKeysAreLookedUpTogether() async throws {
        let ledger = MemoryLedger()
        for row in 1...150 { sentBefore(ledger, "k\(row)", item: LedgerKey(step: 1, row: row)) }
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 150, transport: transport, control: BatchControl(ledger: ledger), keys: { "k\($0)" }, window: 3600)
        #expect(outcome.counts == ItemCounts(duplicates: 150))
        #expect(ledger.batchLookups.withLock { $0 } == [64, 64, 22])
        #expect(ledger.singleLookups.load(ordering: .relaxed) == 0, "no row asked on its own")
        #expect(transport.rows.isEmpty)
    }

    @Test func aKeyAnotherRunMarksAfterTheBatchLookupIsStillHeldWhenTheRowIsMarked() async throws {
        let ledger = MemoryLedger()
        ledger.afterBatchLookup.withLock {
            $0 = { [ledger] in
                ledger.otherRuns.withLock {
                    $0["k5"] = PriorSend(
                        runId: "20261123-030000-bbbbbb", at: Date().timeIntervalSince1970, state: .accepted,
                        origin: "rows.csv:6", sameRun: false)
                }
            }
        }
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 8, transport: transport, control: BatchControl(ledger: ledger), keys: { "k\($0)" }, window: 3600)
        #expect(transport.rows.sorted() == [1, 2, 3, 4, 6, 7, 8])
        #expect(outcome.counts == ItemCounts(accepted: 7, duplicates: 1))
        #expect(
            ledger.state(5) == .duplicate,
            "the row the other run sent is recorded a duplicate, never marked sending here")
    }

    @Test func anItemAnotherRunAcceptedWithinTheWindowIsNotSentAndSaysWhichRun() async throws {
        let ledger = MemoryLedger()
        sentBefore(ledger, "k2")
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 3, transport: transport, control: BatchControl(ledger: ledger), keys: { "k\($0)" },
            window: 3600)
        #expect(transport.rows.sorted() == [1, 3])
        #expect(outcome.counts == ItemCounts(accepted: 2, duplicates: 1))
        #expect(ledger.state(2) == .duplicate)
        #expect(
            ledger.entries.withLock { $0[LedgerKey(step: 1, row: 2)]?.error }?.hasPrefix(
                "already sent by run 20261123-030000-aaaaaa (rows.csv:9 at ") == true)
        // One run's duplicates are one group in the report, whatever rows they were.
        #expect(outcome.failures.map(\.reason) == ["already sent by run 20261123-030000-aaaaaa"])
    }

    @Test func outsideTheWindowOrWithTheWindowOffTheItemIsSent() async throws {
        let old = MemoryLedger()
        sentBefore(old, "k1", ago: 7200)
        let late = rowTransport()
        _ = try await runBatch(
            rows: 1, transport: late, control: BatchControl(ledger: old), keys: { "k\($0)" }, window: 3600)
        #expect(late.rows == [1])

        let recent = MemoryLedger()
        sentBefore(recent, "k1")
        let off = rowTransport()
        _ = try await runBatch(
            rows: 1, transport: off, control: BatchControl(ledger: recent), keys: { "k\($0)" }, window: 0)
        #expect(off.rows == [1])
    }

    @Test func againSendsWhatAnotherRunSentAndCountsIt() async throws {
        let ledger = MemoryLedger()
        sentBefore(ledger, "k1")
        sentBefore(ledger, "k3")
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 3, transport: transport, control: BatchControl(ledger: ledger, again: true),
            keys: { "k\($0)" }, window: 3600)
        #expect(transport.rows.sorted() == [1, 2, 3])
        #expect(outcome.counts == ItemCounts(accepted: 3))
        #expect(outcome.resent == 2)
    }

    @Test func twoRowsOfOneRunWithOneKeySendOnce() async throws {
        let ledger = MemoryLedger()
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 4, transport: transport, control: BatchControl(ledger: ledger), concurrency: 1,
            keys: { $0 == 3 ? "k1" : "k\($0)" }, window: 3600)
        #expect(transport.rows.sorted() == [1, 2, 4])
        #expect(outcome.counts == ItemCounts(accepted: 3, duplicates: 1))
        #expect(
            ledger.entries.withLock { $0[LedgerKey(step: 1, row: 3)]?.error }
                == "already sent by this run (the same notification as row 1)")
    }

    @Test func againDoesNotOverrideUnknownFateAndStillSendsTwoRowsOfOneRunOnce() async throws {
        let ledger = MemoryLedger()
        sentBefore(ledger, "k1", state: .unknown)
        sentBefore(ledger, "k2")
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 3, transport: transport, control: BatchControl(ledger: ledger, again: true), concurrency: 1,
            keys: { $0 == 3 ? "k2" : "k\($0)" }, window: 3600)
        #expect(
            transport.rows == [2], "row 1 is of unknown fate elsewhere; row 3 repeats row 2 of this run"
        )
        #expect(outcome.counts == ItemCounts(accepted: 1, unknown: 1, duplicates: 1))
        #expect(outcome.resent == 1)
    }

    @Test func anItemHeldBackByAnotherRunsUnknownIsAskedAgainOnResume() async throws {
        let ledger = MemoryLedger()
        sentBefore(ledger, "k1", state: .unknown)
        _ = try await runBatch(
            rows: 1, transport: rowTransport(), control: BatchControl(ledger: ledger), keys: { "k\($0)" }, window: 3600)
        #expect(ledger.state(1) == .unknown)
        #expect(ledger.entries.withLock { $0[LedgerKey(step: 1, row: 1)]?.attempts } == 0)
        // The other run's item was settled as delivered: the resumed run takes it as sent.
        sentBefore(ledger, "k1", state: .accepted)
        let settled = rowTransport()
        let outcome = try await runBatch(
            rows: 1, transport: settled, control: BatchControl(ledger: ledger, isResume: true),
            keys: { "k\($0)" }, window: 3600)
        #expect(settled.rows.isEmpty)
        #expect(outcome.counts == ItemCounts(duplicates: 1))
        // Settled as not delivered instead (it is no longer an earlier send): the resumed run sends it.
        let other = MemoryLedger()
        sentBefore(other, "k1", state: .unknown)
        _ = try await runBatch(
            rows: 1, transport: rowTransport(), control: BatchControl(ledger: other), keys: { "k\($0)" }, window: 3600)
        other.otherRuns.withLock { $0 = [:] }
        let resend = rowTransport()
        _ = try await runBatch(
            rows: 1, transport: resend, control: BatchControl(ledger: other, isResume: true), keys: { "k\($0)" },
            window: 3600)
        #expect(resend.rows == [1])
        #expect(other.state(1) == .accepted)
    }

    @Test func anItemAnotherRunLeftUnknownIsReportedUnknownNotSent() async throws {
        let ledger = MemoryLedger()
        sentBefore(ledger, "k1", state: .unknown)
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 1, transport: transport, control: BatchControl(ledger: ledger), keys: { "k\($0)" }, window: 3600)
        #expect(transport.rows.isEmpty)
        #expect(outcome.counts == ItemCounts(unknown: 1))
        #expect(outcome.failures.first?.reason == "left of unknown fate by run 20261123-030000-aaaaaa")

        let resend = rowTransport()
        _ = try await runBatch(
            rows: 1, transport: resend, control: BatchControl(ledger: MemoryLedger(), resendUnknown: true),
            keys: { "k\($0)" }, window: 3600)
        #expect(resend.rows == [1])
    }

    @Test(arguments: [ItemState.accepted, .failed])
    func anItemAnotherLiveRunIsSendingWaitsForItsOutcome(_ outcome: ItemState) async throws {
        // Another run, still going, marked k2 sending a second ago: row 2 waits for it instead of being reported
        // unknown. Accepted there, it is a duplicate here; failed there (no longer held), it is sent here.
        let ledger = MemoryLedger()
        sentBefore(ledger, "k2", state: .sending, ago: 1)
        let asked = Atomic<Int>(0)
        let control = BatchControl(
            ledger: ledger,
            runIsLive: { id in
                asked.add(1, ordering: .relaxed)
                return id == "20261123-030000-aaaaaa"
            })
        let settle = Task {
            try await Task.sleep(for: .milliseconds(400))
            if outcome == .accepted {
                sentBefore(ledger, "k2", state: .accepted, ago: 0)
            } else {
                ledger.otherRuns.withLock { $0 = [:] }
            }
        }
        let transport = rowTransport()
        let result = try await runBatch(
            rows: 3, transport: transport, control: control, keys: { "k\($0)" }, window: 3600)
        try await settle.value
        #expect(asked.load(ordering: .relaxed) >= 1)
        if outcome == .accepted {
            #expect(transport.rows.sorted() == [1, 3])
            #expect(result.counts == ItemCounts(accepted: 2, duplicates: 1))
            #expect(ledger.state(2) == .duplicate)
        } else {
            #expect(transport.rows.sorted() == [1, 2, 3])
            #expect(result.counts == ItemCounts(accepted: 3))
        }
    }

    @Test(arguments: [(live: false, ago: 1.0), (live: true, ago: BatchRunner.inFlightWait + 1)])
    func anItemAKilledRunOrALongStalledOneWasSendingIsReportedUnknownAtOnce(_ other: (live: Bool, ago: Double))
        async throws
    {
        let ledger = MemoryLedger()
        sentBefore(ledger, "k1", state: .sending, ago: other.ago)
        let transport = rowTransport()
        let result = try await runBatch(
            rows: 2, transport: transport, control: BatchControl(ledger: ledger, runIsLive: { _ in other.live }),
            keys: { "k\($0)" }, window: 3600)
        #expect(transport.rows == [2])
        #expect(result.counts == ItemCounts(accepted: 1, unknown: 1))
        #expect(result.failures.first?.reason == "left of unknown fate by run 20261123-030000-aaaaaa")
    }

    @Test func aResumedRunCountsItsDuplicatesAndBadRowsAgainWithoutSending() async throws {
        let ledger = MemoryLedger()
        sentBefore(ledger, "k2")
        _ = try await runBatch(
            rows: 3, transport: rowTransport(), control: BatchControl(ledger: ledger), invalid: [3],
            keys: { "k\($0)" }, window: 3600)
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 3, transport: transport, control: BatchControl(ledger: ledger, isResume: true), invalid: [3],
            keys: { "k\($0)" }, window: 3600)
        #expect(transport.rows.isEmpty)
        #expect(outcome.counts == ItemCounts(skipped: 1, duplicates: 1, bad: 1))
    }

    @Test func aDryRunPlansWithoutPacingAndShowsWhatWasAlreadySent() async throws {
        let ledger = MemoryLedger()
        sentBefore(ledger, "k1")
        let transport = rowTransport()
        let outcome = try await runBatch(
            rows: 3, transport: transport, control: BatchControl(ledger: ledger), keys: { "k\($0)" },
            window: 3600, dryRun: true)
        #expect(outcome.counts == ItemCounts(planned: 2, duplicates: 1))
        // Nothing is written in a dry run, even to a writable journal.
        #expect(ledger.entries.withLock { $0 }.isEmpty)
        // No pacing in a dry run, whatever the step's rate.
        let hub = HubDeclaration(
            name: "h", location: SourceLocation(file: "p.yaml", line: 1, column: 1),
            connection: try ConnectionString(
                parsing: "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=F;SharedAccessKey=k"),
            hubName: "myhub", endpoint: nil)
        let context = StepContext(
            logger: PushlineLogging.logger(label: "t", level: "critical")!, clock: .system,
            document: PipelineDocument(file: "p.yaml", directory: ".", hubs: [hub]), state: RunState(),
            isDryRun: true, transport: DryRunTransport())
        let dry = BatchRunner(
            session: try context.session(for: hub), stepIndex: 1, stepId: "send", concurrency: 1, rate: 25,
            control: BatchControl(), isDryRun: true)
        #expect(dry.governor.ceiling == nil)
        let live = BatchRunner(
            session: try context.session(for: hub), stepIndex: 1, stepId: "send", concurrency: 1, rate: 25,
            control: BatchControl(), isDryRun: false)
        #expect(live.governor.ceiling == 25)
    }

    @Test func reasonsGroupByTheRunTheyDuplicate() {
        #expect(
            FailureReason.group("already sent by run R1 (rows.csv:2 at 2026-11-23T03:00:00Z)")
                == "already sent by run R1")
        #expect(
            FailureReason.group("already sent by this run (the same notification as rows.csv:2)")
                == "already sent by this run")
        #expect(FailureReason.group("bad request (400): Invalid tag (x)") == "bad request (400): Invalid tag (x)")
    }
}

/// Default keys: what the hub acts on, nothing else.
@Suite struct IdempotencyKeyTests {
    private func session(endpoint: String?) throws -> HubSession {
        let hub = HubDeclaration(
            name: "h", location: SourceLocation(file: "p.yaml", line: 1, column: 1),
            connection: try ConnectionString(
                parsing: "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=F;SharedAccessKey=k"),
            hubName: "myhub", endpoint: endpoint)
        let context = StepContext(
            logger: PushlineLogging.logger(label: "t", level: "critical")!, clock: .system,
            document: PipelineDocument(file: "p.yaml", directory: ".", hubs: [hub]), state: RunState(),
            isDryRun: true, transport: DryRunTransport())
        return try context.session(for: hub)
    }

    private func request(_ session: HubSession, body: String, schedule: String? = nil) -> HubRequest {
        var headers = [
            HubHeader("ServiceBusNotification-Format", "template"), HubHeader("ServiceBusNotification-Tags", "a"),
        ]
        if let schedule { headers.append(HubHeader("ServiceBusNotification-ScheduleTime", schedule)) }
        return HubRequest(
            method: .post, url: session.endpoint.hubBaseURL + "messages?api-version=2020-06", headers: headers,
            body: Array(body.utf8), isIdempotent: false, summary: "send", right: .send)
    }

    @Test func theSameRequestOnTheSameHubIsTheSameKeyWhereverItIsSent() throws {
        let azure = try session(endpoint: nil)
        let emulator = try session(endpoint: "http://127.0.0.1:8080/")
        let key = IdempotencyKey.of(request(azure, body: "{}"), hub: azure)
        #expect(key.hasPrefix("request:") && key.count == 8 + 32)
        #expect(
            IdempotencyKey.of(request(emulator, body: "{}"), hub: emulator) == key,
            "an endpoint override is not another hub")
        #expect(IdempotencyKey.of(request(azure, body: "{\"m\":1}"), hub: azure) != key)
    }

    /// The key as it was first defined, written as text: what every journal holds. The key's code must never change it.
    private func keyAsFirstDefined(_ request: HubRequest, hub: HubSession, includingSchedule: Bool = false) -> String {
        var text =
            "pushline-key-v1\n\(hub.hub.connection?.endpoint ?? hub.endpoint.hubBaseURL)|\(hub.endpoint.hub)\n\(request.method.rawValue) "
        text +=
            request.url.hasPrefix(hub.endpoint.hubBaseURL)
            ? String(request.url.dropFirst(hub.endpoint.hubBaseURL.count)) : request.url
        text += "\n"
        let headers = request.headers.map { (name: $0.name.lowercased(), value: $0.value) }.sorted { $0.name < $1.name }
        for header in headers where includingSchedule || header.name != "servicebusnotification-scheduletime" {
            text += header.name + ": " + header.value + "\n"
        }
        text += "\n" + String(decoding: request.body, as: UTF8.self)
        return "request:" + ContentDigest.hex(text).prefix(32)
    }

    @Test func keysAreTheOnesEveryJournalHolds() throws {
        let azure = try session(endpoint: nil)
        let emulator = try session(endpoint: "http://127.0.0.1:8080/")
        var requests = [
            request(azure, body: "{}"),
            request(azure, body: "{\"aps\":{\"alert\":\"Grüße 👋\"}}", schedule: "2026-11-24T09:00:00"),
            request(emulator, body: ""),
        ]
        var invalid = request(azure, body: "")
        invalid.body = [0x7B, 0xFF, 0xFE, 0x7D]  // not UTF-8
        invalid.headers.append(HubHeader("X-Custom-HEADER", "Value With Spaces"))
        requests.append(invalid)
        var elsewhere = request(azure, body: "{}")
        elsewhere.url = "https://other.example/hub/messages?api-version=2020-06"
        requests.append(elsewhere)
        for request in requests {
            for hub in [azure, emulator] {
                #expect(IdempotencyKey.of(request, hub: hub) == keyAsFirstDefined(request, hub: hub))
                #expect(
                    IdempotencyKey.of(request, hub: hub, includingSchedule: true)
                        == keyAsFirstDefined(request, hub: hub, includingSchedule: true))
            }
        }
        #expect(IdempotencyKey.of(requests[0], hub: azure) == keyAsFirstDefined(requests[0], hub: azure))
        // A batch's maker, which lower-cases and sorts the header names once for requests that carry the same ones:
        // the same keys, whatever order the requests come in, with names that differ only in case kept in their order.
        var twins = request(azure, body: "{}")
        twins.headers += [HubHeader("x-twin", "b"), HubHeader("X-Twin", "a")]
        var otherValues = twins
        otherValues.headers[otherValues.headers.count - 1].value = "c"
        requests += [twins, otherValues]
        for hub in [azure, emulator] {
            for including in [false, true] {
                var maker = IdempotencyKey.Maker(hub: hub, includingSchedule: including)
                for request in requests + requests.reversed() + [twins, twins, otherValues] {
                    #expect(
                        maker.key(of: request) == keyAsFirstDefined(request, hub: hub, includingSchedule: including))
                }
            }
        }
    }

    @Test func aScheduleTimeCountsOnlyWhenTheStepFixesIt() throws {
        let hub = try session(endpoint: nil)
        let morning = request(hub, body: "{}", schedule: "2026-11-24T09:00:00")
        let evening = request(hub, body: "{}", schedule: "2026-11-24T18:00:00")
        #expect(IdempotencyKey.of(morning, hub: hub) == IdempotencyKey.of(evening, hub: hub))
        #expect(
            IdempotencyKey.of(morning, hub: hub, includingSchedule: true)
                != IdempotencyKey.of(evening, hub: hub, includingSchedule: true))
    }
}
