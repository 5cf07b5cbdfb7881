import Logging
import PipelineCore
import PostgresNIO
import RunStore
import Synchronization

/// Claiming keys as items are marked `sending` (`ItemLedger.markSending(_:claim:)`).
extension PostgresLedger {
    /// Marks items `sending`, first checking in the same transaction each item that claims its key. A
    /// transaction-level advisory lock per key (taken in one order, so two claimers never deadlock) makes a second
    /// process claiming the same key wait until this one commits; its check then sees this one's mark.
    func markSending(_ items: [LedgerItem], claim: KeyClaim) async throws(LedgerError) -> [LedgerKey: PriorSend] {
        guard !items.isEmpty else { return [:] }
        return try await commit(recording: [], skips: [], marking: items, claim: claim)
    }

    /// Records outcomes and skip ranges, then claims and marks the next items, in one transaction: a batch's group
    /// commit. Its round trips: BEGIN; the claim (`claim`: the fence's check, the claimed keys' advisory locks and their
    /// candidates, read once the locks are held, so a claimer that committed first is seen), or the fence's check alone
    /// when nothing claims; the outcomes and the marks in one statement; COMMIT.
    func commit(
        recording outcomes: [LedgerOutcome], skips: [SkipRange], marking items: [LedgerItem], claim: KeyClaim
    ) async throws(LedgerError) -> [LedgerKey: PriorSend] {
        guard !outcomes.isEmpty || !skips.isEmpty || !items.isEmpty else { return [:] }
        let held = HeldKeys()
        let claiming = items.filter { $0.claimsKey && $0.idempotencyKey != nil }
        try await write(items.isEmpty ? "recording outcomes" : "marking items sending", checkingFence: claiming.isEmpty)
        {
            connection, seq, now in
            var candidates: [String: [PriorSend]] = [:]
            if !claiming.isEmpty {
                candidates = Self.settled(
                    try await self.claim(
                        connection, keys: claiming.compactMap(\.idempotencyKey), seq: seq, since: claim.since),
                    by: outcomes, claimed: Set(claiming.compactMap(\.idempotencyKey)), run: self.run ?? "", at: now)
            }
            // This run's items asking here are none of each other's priors (a repeated key among them is the partition's).
            let asking = Set(claiming.map(\.key))
            let (marked, found) = claim.partition(items, run: self.run ?? "", now: now) { item, key in
                PriorAsk(key: key, item: item.key).best(
                    among: (candidates[key] ?? []).filter { !($0.sameRun && $0.key.map(asking.contains) == true) })
            }
            held.set(found)
            try await self.write(outcomes, skips: skips, marking: marked, connection: connection, seq: seq, now: now)
        }
        return held.value
    }

    /// `candidates` as they are once `outcomes` (this run's, written later in the same transaction, in the statement
    /// that marks) are recorded: a row of this run settled as failed, bad or a duplicate no longer holds its key, one
    /// accepted or of unknown fate holds it as that. The claims then see what the SQLite journal's do, which records
    /// first.
    static func settled(
        _ candidates: [String: [PriorSend]], by outcomes: [LedgerOutcome], claimed: Set<String>, run: String,
        at now: Double
    ) -> [String: [PriorSend]] {
        guard !outcomes.isEmpty else { return candidates }
        let holding: Set<ItemState> = [.accepted, .sending, .unknown]
        let recorded = Dictionary(outcomes.map { ($0.item.key, $0) }, uniquingKeysWith: { _, last in last })
        var settled = candidates.mapValues { priors in
            priors.compactMap { prior -> PriorSend? in
                guard prior.sameRun, let key = prior.key, let outcome = recorded[key] else { return prior }
                guard holding.contains(outcome.state) else { return nil }
                var updated = prior
                updated.state = outcome.state
                updated.notificationId = outcome.notificationId
                updated.at = now
                return updated
            }
        }
        // A row of this run that holds a claimed key once recorded, and held none before (recorded without a mark).
        for outcome in recorded.values where holding.contains(outcome.state) {
            guard let key = outcome.item.idempotencyKey, claimed.contains(key),
                settled[key]?.contains(where: { $0.sameRun && $0.key == outcome.item.key }) != true
            else { continue }
            settled[key, default: []].append(
                PriorSend(
                    runId: run, at: now, state: outcome.state, origin: outcome.item.origin, sameRun: true,
                    notificationId: outcome.notificationId, key: outcome.item.key))
        }
        return settled
    }

    /// Records `outcomes` and `skips`, then marks `items`: the outcomes and marks in one statement when they fit one and
    /// share no row, else in turn.
    private func write(
        _ outcomes: [LedgerOutcome], skips: [SkipRange], marking items: [LedgerItem], connection: PostgresConnection,
        seq: Int, now: Double
    ) async throws {
        let recordChunks = Self.chunks(outcomes, key: \.item.key)
        let markChunks = Self.chunks(items, key: \.key)
        if recordChunks.count == 1, markChunks.count == 1,
            Set(outcomes.map(\.item.key)).isDisjoint(with: items.map(\.key))
        {
            try await connection.perform(
                RecordAndMark(seq: seq, now: now, outcomes: ItemRows(outcomes), items: ItemRows(items)),
                logger: store.logger)
            try await record([], skips: skips, connection: connection, seq: seq, now: now)
            return
        }
        try await record(outcomes, skips: skips, connection: connection, seq: seq, now: now)
        for chunk in markChunks {
            try await connection.perform(
                MarkSending(seq: seq, now: now, items: ItemRows(chunk)), logger: store.logger)
        }
    }
}

/// The items a claim found held, filled in by a `@Sendable` transaction body.
final class HeldKeys: Sendable {
    private let held = Mutex<[LedgerKey: PriorSend]>([:])
    func set(_ found: [LedgerKey: PriorSend]) { held.withLock { $0 = found } }
    var value: [LedgerKey: PriorSend] { held.withLock { $0 } }
}
