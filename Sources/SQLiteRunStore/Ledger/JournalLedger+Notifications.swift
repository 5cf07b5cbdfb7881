import PipelineCore
import RunStore

/// The notification ids of a step's items, read back for a later step that reads their delivery outcomes.
extension JournalLedger {
    /// The ids are counted, then read in row order, keeping only the sampled positions: memory holds the sample, not
    /// a million ids.
    package func notificationIds(step: Int, sample size: Int) async throws(LedgerError) -> NotificationSample? {
        try await ledgerCall { () throws(RunStoreError) -> NotificationSample? in
            try await journal.withConnection { (connection) throws(RunStoreError) -> NotificationSample? in
                let seq = try runSeq(connection)
                let bind = { (statement: SQLiteStatement) throws(RunStoreError) in
                    try statement.bind(1, seq)
                    try statement.bind(2, Int64(step))
                }
                var total = 0
                try connection.query(
                    "SELECT count(*) FROM items WHERE run = ?1 AND step = ?2 AND notification_id IS NOT NULL",
                    bind: bind
                ) { (row) throws(RunStoreError) in
                    total = row.int(0)
                }
                let picks = NotificationSample.picks(of: total, size: size)
                var ids: [String] = []
                var position = 0
                var next = picks.makeIterator()
                var wanted = next.next()
                try connection.query(
                    "SELECT notification_id FROM items WHERE run = ?1 AND step = ?2 AND notification_id IS NOT NULL ORDER BY row",
                    bind: bind
                ) { (row) throws(RunStoreError) in
                    defer { position += 1 }
                    guard position == wanted, let id = row.compactText(0) else { return }
                    ids.append(id)
                    wanted = next.next()
                }
                return NotificationSample(ids: ids, total: total)
            }
        }
    }
}
