import Foundation
import PipelineCore
import RunStore
import Testing

@Suite("RunStore contract: the item ledger")
struct RunStoreLedgerTests {
    @Test(
        "markSending records the item as sending with one attempt; again counts a second attempt",
        arguments: StoreKind.all)
    func markSendingCountsAttempts(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger: any ItemLedger = store.ledger(for: run)
            let key = LedgerKey(step: 1, row: 7)
            #expect(try await ledger.entry(key) == nil)

            try await ledger.markSending([item(1, 7), item(1, 8)])
            #expect(
                try await ledger.entry(key) == LedgerEntry(key: key, digest: "digest-7", state: .sending, attempts: 1))

            try await ledger.markSending([item(1, 7)])
            #expect(try await ledger.entry(key)?.attempts == 2)
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 8))?.attempts == 1)
        }
    }

    @Test(
        "record stores an accepted outcome with its notification id, keeping the attempt count",
        arguments: StoreKind.all)
    func recordAccepted(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = store.ledger(for: run)
            try await ledger.markSending([item(0, 1)])
            try await ledger.record([LedgerOutcome(item: item(0, 1), state: .accepted, notificationId: "n-123")])

            let entry = try #require(try await ledger.entry(LedgerKey(step: 0, row: 1)))
            #expect(
                entry
                    == LedgerEntry(
                        key: LedgerKey(step: 0, row: 1), digest: "digest-1", state: .accepted,
                        attempts: 1, notificationId: "n-123"))
        }
    }

    @Test(
        "assignId keeps a sending item's id across a reopen, and refuses an item never marked sending",
        arguments: StoreKind.all)
    func assignIdIsDurable(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, reopen in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let key = LedgerKey(step: 2, row: 5)
            try await store.ledger(for: run).markSending([item(2, 5)])
            try await store.ledger(for: run).assignId("reg-42", to: key)

            let reopened = try await reopen()
            let entry = try #require(try await reopened.ledger(for: run).entry(key))
            #expect(entry.state == .sending)
            #expect(entry.notificationId == "reg-42")
            await #expect(throws: LedgerError.self) {
                try await reopened.ledger(for: run).assignId("reg-43", to: LedgerKey(step: 2, row: 6))
            }
            // A settled item's id is history.
            try await reopened.ledger(for: run).record([
                LedgerOutcome(item: item(2, 5), state: .accepted, notificationId: "reg-42")
            ])
            await #expect(throws: LedgerError.self) { try await reopened.ledger(for: run).assignId("reg-44", to: key) }
            #expect(try await reopened.ledger(for: run).entry(key)?.notificationId == "reg-42")
        }
    }

    @Test(
        "markSending(creating:) marks a new attempt and keeps the earlier id in the same transaction",
        arguments: StoreKind.all)
    func markSendingCreatingKeepsTheId(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = store.ledger(for: run)
            let key = LedgerKey(step: 1, row: 1)
            try await ledger.markSending([item(1, 1)])
            try await ledger.assignId("reg-7", to: key)
            try await ledger.markSending(item(1, 1), creating: "reg-7")
            let entry = try #require(try await ledger.entry(key))
            #expect(entry.state == .sending)
            #expect(entry.attempts == 2)
            #expect(entry.notificationId == "reg-7")
        }
    }

    @Test("record of an item never marked sending inserts it with no attempt", arguments: StoreKind.all)
    func recordWithoutSending(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = store.ledger(for: run)
            try await ledger.record([LedgerOutcome(item: item(0, 3), state: .failed, error: "missing column 'tag'")])

            let entry = try #require(try await ledger.entry(LedgerKey(step: 0, row: 3)))
            #expect(entry.state == .failed)
            #expect(entry.attempts == 0)
            #expect(entry.error == "missing column 'tag'")
            #expect(entry.retriable == false)
        }
    }

    @Test("a new attempt clears the previous outcome until its own is recorded", arguments: StoreKind.all)
    func retryClearsOutcome(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = store.ledger(for: run)
            let key = LedgerKey(step: 0, row: 1)
            try await ledger.markSending([item(0, 1)])
            try await ledger.record([
                LedgerOutcome(item: item(0, 1), state: .unknown, error: "504 Gateway Timeout", retriable: true)
            ])
            #expect(
                try await ledger.entry(key)
                    == LedgerEntry(
                        key: key, digest: "digest-1", state: .unknown, attempts: 1,
                        error: "504 Gateway Timeout", retriable: true))

            try await ledger.markSending([item(0, 1)])
            #expect(
                try await ledger.entry(key) == LedgerEntry(key: key, digest: "digest-1", state: .sending, attempts: 2))
        }
    }

    @Test("a batch larger than one statement, with a key repeated, is written in order", arguments: StoreKind.all)
    func largeBatchWithRepeat(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = store.ledger(for: run)
            // 40 rows span several multi-row statements; row 5 appears twice, as two attempts would.
            let batch = (1...39).map { item(2, $0) } + [item(2, 5)]
            try await ledger.markSending(batch)
            #expect(try await ledger.entry(LedgerKey(step: 2, row: 5))?.attempts == 2)
            #expect(try await ledger.entry(LedgerKey(step: 2, row: 39))?.attempts == 1)

            try await ledger.record(
                batch.map { LedgerOutcome(item: $0, state: .accepted, notificationId: "n\($0.key.row)") })
            #expect(
                try await store.counts(run: run.id) == [StepCount(step: 2, stepId: "send", state: .accepted, count: 39)]
            )
            #expect(try await ledger.entry(LedgerKey(step: 2, row: 17))?.notificationId == "n17")
        }
    }

    @Test("items belong to their run: another run's ledger does not see them", arguments: StoreKind.all)
    func scopedToRun(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let other = try await store.startRun(identity: "other", pipeline: "p", pid: 1, now: novemberMorning)
            try await store.ledger(for: run).markSending([item(0, 1)])
            #expect(try await store.ledger(for: other).entry(LedgerKey(step: 0, row: 1)) == nil)
            #expect(try await store.ledger(for: run).entry(LedgerKey(step: 0, row: 1)) != nil)
        }
    }

    @Test(
        "text round-trips exactly: empty, non-ASCII, embedded NUL, quotes, backslashes and control characters",
        arguments: StoreKind.all)
    func textRoundTrips(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = store.ledger(for: run)
            let odd = LedgerItem(key: LedgerKey(step: 0, row: 1), stepId: "send", origin: "", digest: "a\u{0}b")
            try await ledger.record([
                LedgerOutcome(
                    item: odd, state: .failed, notificationId: "",
                    error: "Zürich 🚀 ‘quoted’ \"and\" a \\ back\tslash\nline \u{1}")
            ])

            let entry = try #require(try await ledger.entry(odd.key))
            #expect(entry.digest == "a\u{0}b")
            #expect(entry.notificationId == "")
            #expect(entry.error == "Zürich 🚀 ‘quoted’ \"and\" a \\ back\tslash\nline \u{1}")
            // Marked sending too, with the characters JSON escapes and the stored form's own marker.
            let marked = LedgerItem(
                key: LedgerKey(step: 0, row: 2), stepId: "send", origin: "rows.csv:\"3\"", digest: "d\\2\u{1F}",
                idempotencyKey: "\u{1}pushline-escaped:k\"\u{0}", target: "user:\"ann\"\n\\")
            try await ledger.markSending([marked])
            let listed = try await store.items(run: run.id, states: [], limit: 10)
            #expect(listed.map(\.origin) == ["", "rows.csv:\"3\""])
            let back = try #require(listed.last)
            #expect(back.entry.digest == marked.digest)
            #expect(back.idempotencyKey == marked.idempotencyKey)
            #expect(back.target == marked.target)
        }
    }

    @Test(
        "a ledger for a run the journal does not have fails with a LedgerError naming the run", arguments: StoreKind.all
    )
    func unknownRun(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let missing = RunRecord(
                id: "20260101-000000-000000", identity: "x", pipeline: "send.yaml", startedAt: 0, status: .running,
                pid: 1)
            let ledger = store.ledger(for: missing)
            let error = await #expect(throws: LedgerError.self) { try await ledger.markSending([item(0, 1)]) }
            #expect(error?.message.contains("no run 20260101-000000-000000") == true)
            #expect(error?.message.contains(store.location) == true)
            await #expect(throws: LedgerError.self) { try await ledger.entry(LedgerKey(step: 0, row: 1)) }
            let counts = try await store.counts(run: missing.id)
            #expect(counts.isEmpty)
        }
    }

    @Test("empty batches write nothing", arguments: StoreKind.all)
    func emptyBatches(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = store.ledger(for: run)
            try await ledger.markSending([])
            try await ledger.record([])
            #expect(try await store.counts(run: run.id).isEmpty)
        }
    }
}
