import PipelineCore
import PostgresNIO
import RunStore

/// The notification ids of a step's items, read back for a later step that reads their delivery outcomes.
extension PostgresLedger {
    /// Counted, then read in row order keeping only the sampled positions, as the SQLite journal does.
    func notificationIds(step: Int, sample size: Int) async throws(LedgerError) -> NotificationSample? {
        try await ledgerCall {
            try await self.store.withConnection("reading notification ids") { connection in
                let seq = try await self.runSeq(connection)
                var total = 0
                for try await count in try await connection.query(
                    "SELECT count(*) FROM pushline.items WHERE run = \(seq) AND step = \(step) AND notification_id IS NOT NULL",
                    logger: self.store.logger
                ).decode(Int.self) {
                    total = count
                }
                let picks = NotificationSample.picks(of: total, size: size)
                var ids: [String] = []
                var position = 0
                var next = picks.makeIterator()
                var wanted = next.next()
                let rows = try await connection.query(
                    "SELECT notification_id FROM pushline.items WHERE run = \(seq) AND step = \(step) AND notification_id IS NOT NULL ORDER BY \"row\"",
                    logger: self.store.logger)
                for try await id in rows.decode(String.self) {
                    if position == wanted {
                        ids.append(id)
                        wanted = next.next()
                    }
                    position += 1
                }
                return NotificationSample(ids: ids, total: total)
            }
        }
    }
}
