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
            var priors: [String: PriorSend] = [:]
            if !claiming.isEmpty {
                let keys = claiming.compactMap { $0.idempotencyKey.map { StoredText.encode($0) } }
                // Read to the end: a lock that times out fails here, not as "transaction aborted" in the next statement.
                let locked = try await connection.query("""
                    SELECT pg_advisory_xact_lock(h)
                    FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest(\(keys)::text[]) AS k ORDER BY h) AS held
                    """, logger: self.store.logger)
                for try await _ in locked {}
                priors = try await Self.priors(connection, keys: keys, seq: seq, since: claim.since, excluding: claiming.map(\.key),
                                               logger: self.store.logger)
            }
            let (marked, found) = claim.partition(items, run: self.run ?? "", now: now) { _, key in priors[StoredText.encode(key)] }
            held.set(found)
            for chunk in Self.chunks(marked, key: \.key) {
                try await connection.query(Self.markSendingQuery(chunk, seq: seq, now: now), logger: self.store.logger)
            }
        }
        return held.value
    }

    /// The best prior of each of `keys` (stored form), as `priorSend` chooses it, leaving out this run's items at
    /// `excluding` (the items asking).
    private static func priors(_ connection: PostgresConnection, keys: [String], seq: Int, since: Double, excluding: [LedgerKey],
                               logger: Logger) async throws -> [String: PriorSend] {
        let steps = excluding.map(\.step)
        let rows = excluding.map(\.row)
        let found = try await connection.query("""
            SELECT DISTINCT ON (i.idempotency_key) i.idempotency_key, r.id, i.updated_at, i.state, i.origin, i.run = \(seq), i.notification_id,
                i.step, i."row"
            FROM pushline.items AS i JOIN pushline.runs AS r ON r.seq = i.run
            WHERE i.idempotency_key = ANY(\(keys)::text[]) AND i.updated_at >= \(since) AND i.state IN ('accepted', 'sending', 'unknown')
                AND NOT (i.run = \(seq) AND (i.step, i."row") IN (SELECT * FROM unnest(\(steps)::integer[], \(rows)::integer[])))
            ORDER BY i.idempotency_key, i.run = \(seq) DESC, i.state = 'accepted' DESC, i.updated_at DESC, i.step DESC, i."row" DESC
            """, logger: logger)
        var priors: [String: PriorSend] = [:]
        for try await row in found {
            let (key, runId, at, state, origin, sameRun, notificationId, step, itemRow) =
                try row.decode((String, String, Double, String, String, Bool, String?, Int, Int).self)
            priors[key] = PriorSend(runId: runId, at: at, state: try PostgresStore.itemState(state), origin: StoredText.decode(origin),
                                    sameRun: sameRun, notificationId: StoredText.decode(notificationId), key: LedgerKey(step: step, row: itemRow))
        }
        return priors
    }
}

/// The items a claim found held, filled in by a `@Sendable` transaction body.
final class HeldKeys: Sendable {
    private let held = Mutex<[LedgerKey: PriorSend]>([:])
    func set(_ found: [LedgerKey: PriorSend]) { held.withLock { $0 = found } }
    var value: [LedgerKey: PriorSend] { held.withLock { $0 } }
}

