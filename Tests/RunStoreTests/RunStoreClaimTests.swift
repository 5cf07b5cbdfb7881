import Foundation
import PipelineCore
import RunStore
import Testing

private func claiming(_ row: Int, key: String) -> LedgerItem {
    var item = LedgerItem(
        key: LedgerKey(step: 1, row: row), stepId: "send", origin: "rows.csv:\(row + 1)", digest: "digest-\(row)",
        idempotencyKey: key)
    item.claimsKey = true
    return item
}

/// The check at send time: marking items `sending` claims their keys in the same transaction.
@Suite("RunStore contract: claiming keys as items are marked sending")
struct RunStoreClaimTests {
    @Test(
        "a key another run accepted or is sending is not marked; the holder comes back; --again and --resend-unknown lift what they lift",
        arguments: StoreKind.all)
    func heldKeysAreNotMarked(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let now = Date().timeIntervalSince1970
            let first = try await store.startRun(identity: "a", pipeline: "digest", pid: 1, now: now)
            let firstLedger = store.ledger(for: first)
            try await firstLedger.markSending([claiming(1, key: "sent"), claiming(2, key: "going")])
            try await firstLedger.record([
                LedgerOutcome(item: claiming(1, key: "sent"), state: .accepted, notificationId: "n1")
            ])

            let second = try await store.startRun(identity: "b", pipeline: "news", pid: 2, now: now)
            let ledger = store.ledger(for: second)
            var free = claiming(3, key: "free")
            free.claimsKey = true
            var unclaimed = claiming(4, key: "other")
            unclaimed.claimsKey = false
            let held = try await ledger.markSending(
                [claiming(1, key: "sent"), claiming(2, key: "going"), free, unclaimed],
                claim: KeyClaim(since: now - 60))
            #expect(Set(held.keys) == [LedgerKey(step: 1, row: 1), LedgerKey(step: 1, row: 2)])
            #expect(
                held[LedgerKey(step: 1, row: 1)]?.runId == first.id
                    && held[LedgerKey(step: 1, row: 1)]?.state == .accepted)
            #expect(held[LedgerKey(step: 1, row: 1)]?.notificationId == "n1")
            #expect(held[LedgerKey(step: 1, row: 2)]?.state == .sending)
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 1)) == nil, "a held item is not marked")
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 3))?.state == .sending)
            #expect(
                try await ledger.entry(LedgerKey(step: 1, row: 4))?.state == .sending,
                "an item that claims nothing is marked")

            // --again: another run's accepted item no longer holds the key; one being sent still does.
            let again = try await ledger.markSending(
                [claiming(5, key: "sent"), claiming(6, key: "going")],
                claim: KeyClaim(since: now - 60, acceptedHolds: false))
            #expect(Array(again.keys) == [LedgerKey(step: 1, row: 6)])
            // --resend-unknown: one being sent (of unknown fate) no longer holds it.
            let resend = try await ledger.markSending(
                [claiming(7, key: "going")], claim: KeyClaim(since: now - 60, unsettledHolds: false))
            #expect(resend.isEmpty)
            // Outside the window nothing holds, not even this run's own row 5.
            #expect(
                try await ledger.markSending([claiming(8, key: "sent")], claim: KeyClaim(since: now + 3600)).isEmpty)
            // Inside it, this run's own item holds the key whatever the flags say.
            let own = try await ledger.markSending(
                [claiming(9, key: "sent")],
                claim: KeyClaim(
                    since: now - 60, acceptedHolds: false,
                    unsettledHolds: false))
            #expect(own[LedgerKey(step: 1, row: 9)]?.sameRun == true)
        }
    }

    @Test("two rows of one batch with one key: the first is marked, the second is held by it", arguments: StoreKind.all)
    func repeatsWithinABatch(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let now = Date().timeIntervalSince1970
            let run = try await store.startRun(identity: "a", pipeline: "digest", pid: 1, now: now)
            let held = try await store.ledger(for: run).markSending(
                [claiming(1, key: "k"), claiming(2, key: "k")],
                claim: KeyClaim(since: now - 60))
            #expect(Array(held.keys) == [LedgerKey(step: 1, row: 2)])
            #expect(
                held[LedgerKey(step: 1, row: 2)]?.sameRun == true
                    && held[LedgerKey(step: 1, row: 2)]?.origin == "rows.csv:2")
        }
    }

    @Test(
        "runs on two handles claiming the same keys at once: every key is marked by exactly one of them",
        arguments: StoreKind.all)
    func concurrentClaims(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, reopen in
            let other = try await reopen()
            let now = Date().timeIntervalSince1970
            let runA = try await store.startRun(identity: "a", pipeline: "digest", pid: 1, now: now)
            let runB = try await other.startRun(identity: "b", pipeline: "digest-copy", pid: 2, now: now)
            let ledgerA = store.ledger(for: runA)
            let ledgerB = other.ledger(for: runB)
            let keys = (1...200).map { "key-\($0)" }
            // Each side claims the keys in groups of 8, in opposite orders, so the two meet on every key.
            async let heldA = Self.claimAll(keys, ledger: ledgerA, now: now)
            async let heldB = Self.claimAll(keys.reversed(), ledger: ledgerB, now: now)
            let (a, b) = try await (heldA, heldB)
            #expect(a.count + b.count == keys.count, "each key held back on exactly one side")
            let markedA = try await store.items(run: runA.id, states: [.sending], limit: 1000).compactMap(
                \.idempotencyKey)
            let markedB = try await store.items(run: runB.id, states: [.sending], limit: 1000).compactMap(
                \.idempotencyKey)
            #expect(Set(markedA).isDisjoint(with: markedB))
            #expect(Set(markedA).union(markedB) == Set(keys))
        }
    }

    private static func claimAll(_ keys: [String], ledger: any ItemLedger, now: Double) async throws -> [LedgerKey:
        PriorSend]
    {
        var held: [LedgerKey: PriorSend] = [:]
        let items = keys.enumerated().map { claiming($0.offset + 1, key: $0.element) }
        var start = 0
        while start < items.count {
            let group = Array(items[start..<min(start + 8, items.count)])
            held.merge(try await ledger.markSending(group, claim: KeyClaim(since: now - 60))) { first, _ in first }
            start += 8
        }
        return held
    }
}
