import Foundation
import PipelineCore
import RunStore
import Testing

private func item(_ row: Int, key: String, claims: Bool = true) -> LedgerItem {
    var item = LedgerItem(
        key: LedgerKey(step: 1, row: row), stepId: "send", origin: "rows.csv:\(row + 1)", digest: "digest-\(row)",
        idempotencyKey: key)
    item.claimsKey = claims
    return item
}

/// A batch's group commit: the outcomes of the items that finished and the marks of the next ones in one call.
@Suite("RunStore contract: group commits")
struct RunStoreGroupCommitTests {
    @Test(
        "outcomes are recorded and the next group claimed and marked; a key another run holds is not marked while the outcomes land",
        arguments: StoreKind.all)
    func recordsThenMarks(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let now = Date().timeIntervalSince1970
            let other = try await store.startRun(identity: "a", pipeline: "digest", pid: 1, now: now)
            let otherLedger = store.ledger(for: other)
            try await otherLedger.markSending([item(1, key: "sent")])
            try await otherLedger.record([
                LedgerOutcome(item: item(1, key: "sent"), state: .accepted, notificationId: "n0")
            ])

            let run = try await store.startRun(identity: "b", pipeline: "digest", pid: 2, now: now)
            let ledger = store.ledger(for: run)
            let claim = KeyClaim(since: now - 60)
            #expect(
                try await ledger.commit(
                    recording: [], skips: [], marking: [item(1, key: "k1"), item(2, key: "k2")], claim: claim
                ).isEmpty)
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 1))?.state == .sending)

            let held = try await ledger.commit(
                recording: [
                    LedgerOutcome(item: item(1, key: "k1"), state: .accepted, notificationId: "n1"),
                    LedgerOutcome(item: item(2, key: "k2"), state: .failed, error: "429", retriable: true),
                ],
                skips: [],
                marking: [
                    item(3, key: "k3"), item(4, key: "sent"), item(5, key: "k1"), item(6, key: "free", claims: false),
                ],
                claim: claim)
            // Row 4's key another run accepted; row 5's this run's row 1 accepted in the same commit, before the claims.
            #expect(Set(held.keys) == [LedgerKey(step: 1, row: 4), LedgerKey(step: 1, row: 5)])
            #expect(held[LedgerKey(step: 1, row: 4)]?.runId == other.id)
            #expect(held[LedgerKey(step: 1, row: 5)]?.sameRun == true)
            let first = try await ledger.entry(LedgerKey(step: 1, row: 1))
            #expect(first?.state == .accepted && first?.notificationId == "n1")
            let second = try await ledger.entry(LedgerKey(step: 1, row: 2))
            #expect(second?.state == .failed && second?.retriable == true)
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 3))?.state == .sending)
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 4)) == nil, "a held item is not marked")
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 5)) == nil)
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 6))?.state == .sending)

            // An item recorded and marked in one commit (a retriable failure sent again) ends marked, its attempts counted.
            _ = try await ledger.commit(
                recording: [LedgerOutcome(item: item(3, key: "k3"), state: .failed, error: "503", retriable: true)],
                skips: [], marking: [item(3, key: "k3")], claim: KeyClaim(since: now - 60, unsettledHolds: false))
            let again = try await ledger.entry(LedgerKey(step: 1, row: 3))
            #expect(again?.state == .sending && again?.attempts == 2 && again?.error == nil)
        }
    }

    @Test(
        "a row of this run settled as failed in the same commit no longer holds its key; one accepted holds it",
        arguments: StoreKind.all)
    func claimsSeeTheCommitsOwnOutcomes(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let now = Date().timeIntervalSince1970
            let run = try await store.startRun(identity: "a", pipeline: "digest", pid: 1, now: now)
            let ledger = store.ledger(for: run)
            let claim = KeyClaim(since: now - 60)
            _ = try await ledger.commit(
                recording: [], skips: [], marking: [item(1, key: "failing"), item(2, key: "going")], claim: claim)
            let held = try await ledger.commit(
                recording: [
                    LedgerOutcome(item: item(1, key: "failing"), state: .failed, error: "400"),
                    LedgerOutcome(item: item(2, key: "going"), state: .accepted, notificationId: "n2"),
                ],
                skips: [], marking: [item(3, key: "failing"), item(4, key: "going")], claim: claim)
            #expect(Array(held.keys) == [LedgerKey(step: 1, row: 4)])
            #expect(held[LedgerKey(step: 1, row: 4)]?.state == .accepted)
            #expect(held[LedgerKey(step: 1, row: 4)]?.notificationId == "n2")
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 3))?.state == .sending)
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 4)) == nil)
        }
    }

    @Test("a commit with only outcomes records them; one with nothing writes nothing", arguments: StoreKind.all)
    func outcomesAlone(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let now = Date().timeIntervalSince1970
            let run = try await store.startRun(identity: "a", pipeline: "digest", pid: 1, now: now)
            let ledger = store.ledger(for: run)
            #expect(try await ledger.commit(recording: [], skips: [], marking: [], claim: KeyClaim(since: now)).isEmpty)
            _ = try await ledger.commit(
                recording: [LedgerOutcome(item: item(1, key: "k"), state: .bad, error: "no userId")], skips: [],
                marking: [], claim: KeyClaim(since: now))
            let entry = try await ledger.entry(LedgerKey(step: 1, row: 1))
            #expect(entry?.state == .bad && entry?.attempts == 0)
            #expect(try await store.counts(run: run.id).map(\.count).reduce(0, +) == 1)
        }
    }
}
