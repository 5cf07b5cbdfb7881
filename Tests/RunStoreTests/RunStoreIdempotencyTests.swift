import Foundation
import PipelineCore
import RunStore
import Testing

private func keyed(_ step: Int, _ row: Int, key: String, target: String? = nil) -> LedgerItem {
    LedgerItem(
        key: LedgerKey(step: step, row: row), stepId: "send", origin: "rows.csv:\(row + 1)", digest: "digest-\(row)",
        idempotencyKey: key, target: target)
}

/// Idempotency keys across runs, settling unknown items, finding items.
@Suite("RunStore contract: idempotency keys, resolve, find") struct RunStoreIdempotencyTests {
    @Test(
        "priorSend finds any run's accepted key within the window, whichever pipeline ran it, not the asker",
        arguments: StoreKind.all)
    func priorSendAcrossRuns(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let now = Date().timeIntervalSince1970
            let first = try await store.startRun(identity: "a", pipeline: "/p/digest.yaml", pid: 1, now: now)
            let ledger = store.ledger(for: first)
            try await ledger.markSending([keyed(1, 1, key: "k1"), keyed(1, 2, key: "k2")])
            try await ledger.record([
                LedgerOutcome(item: keyed(1, 1, key: "k1"), state: .accepted, notificationId: "n1")
            ])
            let other = try await store.startRun(identity: "b", pipeline: "/p/other.yaml", pid: 1, now: now)
            try await store.ledger(for: other).markSending([keyed(1, 1, key: "k3")])
            try await store.ledger(for: other).record([LedgerOutcome(item: keyed(1, 1, key: "k3"), state: .accepted)])

            let second = try await store.startRun(identity: "c", pipeline: "/p/digest.yaml", pid: 2, now: now)
            let asking = store.ledger(for: second)
            let prior = try #require(
                try await asking.priorSend(key: "k1", since: now - 60, excluding: LedgerKey(step: 1, row: 1)))
            #expect(
                prior.runId == first.id && prior.state == .accepted && !prior.sameRun && prior.origin == "rows.csv:2")
            #expect(prior.notificationId == "n1")
            // k2 was left `sending` by the first run: of unknown fate, still found.
            #expect(
                try await asking.priorSend(key: "k2", since: now - 60, excluding: LedgerKey(step: 1, row: 2))?.state
                    == .sending)
            // The key is its own scope (a default key names its hub, a declared one its pipeline and step): another
            // pipeline's run that accepted the same key is a prior too.
            #expect(
                try await asking.priorSend(key: "k3", since: now - 60, excluding: LedgerKey(step: 1, row: 1))?.runId
                    == other.id)
            // Outside the window, or the asking item itself: nothing.
            #expect(
                try await asking.priorSend(key: "k1", since: now + 60, excluding: LedgerKey(step: 1, row: 1)) == nil)
            #expect(
                try await ledger.priorSend(key: "k1", since: now - 60, excluding: LedgerKey(step: 1, row: 1)) == nil)
            // The same run's other row with the key is its own prior.
            #expect(
                try await ledger.priorSend(key: "k1", since: now - 60, excluding: LedgerKey(step: 1, row: 9))?.sameRun
                    == true)
            // …even while only `sending` and another run has the key accepted: this run's own row comes first.
            try await asking.markSending([keyed(1, 1, key: "k1")])
            #expect(
                try await asking.priorSend(key: "k1", since: now - 60, excluding: LedgerKey(step: 1, row: 2))?.sameRun
                    == true)
            // A dry run's read-only view sees the same, and cannot write.
            let view = store.readOnlyLedger()
            #expect(!view.isWritable)
            #expect(
                try await view.priorSend(key: "k1", since: now - 60, excluding: LedgerKey(step: 1, row: 1))?.runId
                    == first.id)
            await #expect(throws: LedgerError.self) { try await view.markSending([keyed(1, 5, key: "k5")]) }
        }
    }

    @Test(
        "priorSends answers for a batch of rows exactly as priorSend answers each, more keys than one statement holds",
        arguments: StoreKind.all)
    func priorSendsAsABatch(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let now = Date().timeIntervalSince1970
            let first = try await store.startRun(identity: "a", pipeline: "digest", pid: 1, now: now)
            let ledger = store.ledger(for: first)
            // Rows 1-40 accepted, 41-45 left sending, 46-50 failed (never a prior); two rows share k7.
            let items =
                (1...50).map {
                    keyed(1, $0, key: "request:\(String(repeating: "0", count: 30))\(String(format: "%02d", $0))")
                }
                + [keyed(1, 51, key: "k7"), keyed(1, 52, key: "k7")]
            try await ledger.markSending(items)
            try await ledger.record(
                items.filter { $0.key.row <= 40 || $0.key.row > 50 }.map {
                    LedgerOutcome(item: $0, state: .accepted, notificationId: "n\($0.key.row)")
                }
                    + items.filter { (46...50).contains($0.key.row) }.map {
                        LedgerOutcome(item: $0, state: .failed, error: "400")
                    })
            let second = try await store.startRun(identity: "b", pipeline: "digest", pid: 2, now: now)
            let asking = store.ledger(for: second)
            try await asking.markSending([keyed(1, 103, key: "k7")])
            var asks = items.map { PriorAsk(key: $0.idempotencyKey!, item: LedgerKey(step: 1, row: $0.key.row)) }
            asks += [
                PriorAsk(key: "k7", item: LedgerKey(step: 1, row: 103)),
                PriorAsk(key: "k7", item: LedgerKey(step: 1, row: 109)),
                PriorAsk(key: "nobody", item: LedgerKey(step: 1, row: 60)),
            ]
            for ledger in [ledger, asking, store.readOnlyLedger()] {
                let batch = try await ledger.priorSends(asks, since: now - 60)
                for ask in asks {
                    let single = try await ledger.priorSend(key: ask.key, since: now - 60, excluding: ask.item)
                    #expect(batch[ask.item] == single, "\(ask)")
                }
            }
            let seen = try await asking.priorSends(asks, since: now - 60)
            #expect(
                seen.count == 49 && seen[LedgerKey(step: 1, row: 109)]?.sameRun == true
                    && seen[LedgerKey(step: 1, row: 103)]?.runId == first.id)
            #expect(try await asking.priorSends(asks, since: now + 3600).isEmpty)
        }
    }

    @Test(
        "resolve settles unknown items as delivered or to resend, records who, and completes a partial run",
        arguments: StoreKind.all)
    func resolveUnknownItems(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = store.ledger(for: run)
            try await ledger.markSending((1...4).map { keyed(1, $0, key: "k\($0)") })
            try await ledger.record([
                LedgerOutcome(item: keyed(1, 1, key: "k1"), state: .accepted),
                LedgerOutcome(item: keyed(1, 2, key: "k2"), state: .unknown, error: "no answer after writing"),
                LedgerOutcome(item: keyed(1, 3, key: "k3"), state: .unknown, error: "500"),
            ])  // row 4 stays `sending`
            try await store.finishRun(id: run.id, state: .partial, exitCode: 3, summary: nil, now: novemberMorning)

            // Rows past any the store can hold match nothing (and do not trap).
            let beyond = try await store.resolve(
                run: run.id, as: .resend, step: nil, rows: [3_000_000_000...3_000_000_001], by: "bob",
                note: nil, now: novemberMorning)
            #expect(beyond.settled == 0)
            let resend = try await store.resolve(
                run: run.id, as: .resend, step: 1, rows: [3...3], by: "bob", note: nil, now: novemberMorning)
            #expect(resend == Resolved(settled: 1, remaining: 3, completed: false))
            let third = try #require(try await store.items(run: run.id, states: [.failed], limit: 10).first)
            #expect(third.retriable && third.key.row == 3)
            #expect(third.resolution == "resend: settled by bob at 2026-11-22T04:12:00Z (was unknown: 500)")

            let delivered = try await store.resolve(
                run: run.id, as: .delivered, step: nil, rows: [], by: "alice", note: "checked\u{0} telemetry",
                now: novemberMorning)
            #expect(delivered == Resolved(settled: 2, remaining: 1, completed: false), "row 3 is still to be resent")
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 4))?.state == .accepted)
            let settled = try await store.items(run: run.id, states: [.accepted], limit: 10).first { $0.key.row == 4 }
            #expect(
                settled?.resolution == "delivered: settled by alice at 2026-11-22T04:12:00Z: checked\u{FFFD} telemetry",
                "a NUL in a note is kept as U+FFFD by both stores")
            let second = try #require(try await ledger.entry(LedgerKey(step: 1, row: 2)))
            #expect(second.state == .accepted && second.error == nil)
            #expect(try await store.run(matching: run.id)?.status == .partial)

            // Once the resend went out (row 3 accepted), nothing is left: a last resolution completes the run.
            try await ledger.markSending([keyed(1, 3, key: "k3")])
            try await ledger.record([LedgerOutcome(item: keyed(1, 3, key: "k3"), state: .unknown, error: "504")])
            let last = try await store.resolve(
                run: run.id, as: .delivered, step: nil, rows: [], by: "alice", note: nil, now: novemberMorning)
            #expect(last.completed && last.remaining == 0)
            #expect(try await store.run(matching: run.id)?.status == .completed)
            #expect(try await store.run(matching: run.id)?.exitCode == 0)
        }
    }

    @Test("find matches keys, origins and whole words of targets, newest first", arguments: StoreKind.all)
    func findItems(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let run = try await store.startRun(
                identity: "abc123", pipeline: "send.yaml", pid: 4242, now: novemberMorning)
            let ledger = store.ledger(for: run)
            try await ledger.markSending([
                keyed(1, 1, key: "digest-u0203", target: "$UserId:{u0203}"),
                keyed(1, 2, key: "digest-u02031", target: "$UserId:{u02031}"),
            ])
            #expect(try await store.find("u0203", pipeline: nil, since: nil, limit: 10).map(\.item.key.row) == [1])
            #expect(
                try await store.find("digest-u02031", pipeline: nil, since: nil, limit: 10).map(\.item.key.row) == [2])
            #expect(try await store.find("rows.csv:3", pipeline: nil, since: nil, limit: 10).map(\.item.key.row) == [2])
            #expect(try await store.find("u0203", pipeline: "/elsewhere.yaml", since: nil, limit: 10).isEmpty)
            #expect(
                try await store.find("u0203", pipeline: nil, since: Date().timeIntervalSince1970 + 60, limit: 10)
                    .isEmpty)
        }
    }
}
