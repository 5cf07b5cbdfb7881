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
        let held = HeldKeys()
        try await write("marking items sending") { connection, seq, now in
            let claiming = items.filter { $0.claimsKey && $0.idempotencyKey != nil }
            var candidates: [String: [PriorSend]] = [:]
            if !claiming.isEmpty {
                let keys = claiming.compactMap { $0.idempotencyKey.map { StoredText.encode($0) } }
                // Read to the end: a lock that times out fails here, not as "transaction aborted" in the next statement.
                let locked = try await connection.query(
                    """
                    SELECT pg_advisory_xact_lock(h)
                    FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest(\(keys)::text[]) AS k ORDER BY h) AS held
                    """, logger: self.store.logger)
                for try await _ in locked {}
                candidates = try await Self.candidates(
                    connection, keys: claiming.compactMap(\.idempotencyKey), seq: seq, since: claim.since,
                    logger: self.store.logger)
            }
            // This run's items asking here are none of each other's priors (a repeated key among them is the partition's).
            let asking = Set(claiming.map(\.key))
            let (marked, found) = claim.partition(items, run: self.run ?? "", now: now) { item, key in
                PriorAsk(key: key, item: item.key).best(
                    among: (candidates[key] ?? []).filter { !($0.sameRun && $0.key.map(asking.contains) == true) })
            }
            held.set(found)
            for chunk in Self.chunks(marked, key: \.key) {
                try await connection.query(Self.markSendingQuery(chunk, seq: seq, now: now), logger: self.store.logger)
            }
        }
        return held.value
    }
}

/// The items a claim found held, filled in by a `@Sendable` transaction body.
final class HeldKeys: Sendable {
    private let held = Mutex<[LedgerKey: PriorSend]>([:])
    func set(_ found: [LedgerKey: PriorSend]) { held.withLock { $0 = found } }
    var value: [LedgerKey: PriorSend] { held.withLock { $0 } }
}
