import Logging
import PipelineCore
import PostgresNIO
import RunStore

/// Looking up what runs already sent under an idempotency key: one query for any number of keys, whose candidates each
/// asker's own rule (`PriorAsk.best`) picks from, for one item, a batch's next rows, or a claim.
extension PostgresLedger {
    /// The newest item of any run with `key` that was accepted, is being sent or is of unknown fate, recorded at
    /// or after `since`; the item at `excluding` of this run is not counted. The key is its own scope: a default
    /// key names its hub, a declared one its pipeline and step.
    func priorSend(key: String, since: Double, excluding: LedgerKey) async throws(LedgerError) -> PriorSend? {
        try await priorSends([PriorAsk(key: key, item: excluding)], since: since)[excluding]
    }

    /// `priorSend` for each of `asks` in one query: a batch's next rows ask together, one round trip to the server
    /// instead of one per row.
    func priorSends(_ asks: [PriorAsk], since: Double) async throws(LedgerError) -> [LedgerKey: PriorSend] {
        guard !asks.isEmpty else { return [:] }
        let candidates = try await ledgerCall {
            try await self.store.withConnection("checking earlier sends") { connection in
                let seq = self.run == nil ? -1 : try await self.runSeq(connection)
                return try await Self.candidates(
                    connection, keys: asks.map(\.key), seq: seq, since: since, logger: self.store.logger)
            }
        }
        var found: [LedgerKey: PriorSend] = [:]
        for ask in asks {
            if let best = ask.best(among: candidates[ask.key] ?? []) { found[ask.item] = best }
        }
        return found
    }

    /// Every item that could be the prior send of one of `keys` (accepted, sending or unknown, recorded at or after
    /// `since`), by key; `seq` is the asking run's (-1 for none), whose own items are `sameRun`.
    static func candidates(
        _ connection: PostgresConnection, keys: [String], seq: Int, since: Double,
        logger: Logger
    ) async throws -> [String: [PriorSend]] {
        let stored = Array(Set(keys.map { StoredText.encode($0) }))
        let rows = try await connection.query(
            """
            SELECT i.idempotency_key, r.id, i.updated_at, i.state, i.origin, i.run = \(seq), i.notification_id, i.step, i."row"
            FROM pushline.items AS i JOIN pushline.runs AS r ON r.seq = i.run
            WHERE i.idempotency_key = ANY(\(stored)::text[]) AND i.updated_at >= \(since) AND i.state IN ('accepted', 'sending', 'unknown')
            """, logger: logger)
        var found: [String: [PriorSend]] = [:]
        for try await row in rows {
            let (key, runId, at, state, origin, sameRun, notificationId, step, itemRow) =
                try row.decode((String, String, Double, String, String, Bool, String?, Int, Int).self)
            found[StoredText.decode(key), default: []].append(
                PriorSend(
                    runId: runId, at: at, state: try PostgresRows.itemState(state), origin: StoredText.decode(origin),
                    sameRun: sameRun, notificationId: StoredText.decode(notificationId),
                    key: LedgerKey(step: step, row: itemRow)))
        }
        return found
    }
}
