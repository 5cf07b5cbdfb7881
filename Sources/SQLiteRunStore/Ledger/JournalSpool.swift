import Foundation
import PipelineCore
import RunStore

/// Rows a step produced, spooled in the journal's `spools` and `spool_rows` tables (see `RowSpool`), for the run a
/// ledger records: filed under the run's identity and generation, so every part and every resume of it reads the same.
final class JournalSpool: RowSpool, SpoolWriting {
    /// The ledger of the run the rows are read for (its run's key in the journal, its error wording).
    private let ledger: JournalLedger
    /// The run as the store started it: its identity, generation and pipeline name file the spool.
    private let record: RunRecord
    private var journal: Journal { ledger.journal }

    init(ledger: JournalLedger, record: RunRecord) {
        self.ledger = ledger
        self.record = record
    }

    /// The complete spool of this run's identity and generation, or its lock and a fresh spool to fill, or `.busy`.
    package func claimSpool(step: Int, source: String, now: Double) async throws(LedgerError) -> SpoolClaim {
        let record = self.record
        if let complete = try await completeSpool(step: step, source: source) { return .complete(complete) }
        let lock: any RunLock
        switch try await ledger.ledgerCall({ () throws(RunStoreError) -> LockAttempt in
            try journal.lock(pipeline: record.spoolLockName(step: step, source: source), holder: .current(now: now))
        }) {
        case .held: return .busy
        case .acquired(let taken): lock = taken
        }
        do throws(LedgerError) {
            // Another part may have completed it between the look and the lock.
            if let complete = try await completeSpool(step: step, source: source) {
                await lock.release()
                return .complete(complete)
            }
            let spool = try await ledger.ledgerCall { () throws(RunStoreError) -> Int64 in
                try await journal.withConnection { (connection) throws(RunStoreError) -> Int64 in
                    let seq = try ledger.runSeq(connection)
                    return try connection.transaction { () throws(RunStoreError) -> Int64 in
                        // What a filler that died left goes; the rows are read again.
                        let bindKey = { (statement: SQLiteStatement) throws(RunStoreError) in
                            try statement.bind(1, record.identity)
                            try statement.bind(2, Int64(record.generation))
                            try statement.bind(3, Int64(step))
                            try statement.bind(4, source)
                        }
                        try connection.execute(
                            """
                            DELETE FROM spool_rows WHERE spool IN (SELECT id FROM spools
                                WHERE identity = ?1 AND generation = ?2 AND step = ?3 AND source = ?4 AND state <> 1)
                            """, bind: bindKey)
                        try connection.execute(
                            "DELETE FROM spools WHERE identity = ?1 AND generation = ?2 AND step = ?3 AND source = ?4 AND state <> 1",
                            bind: bindKey)
                        try connection.execute(
                            """
                            INSERT INTO spools (run, pipeline, identity, generation, step, source, state, started_at)
                            VALUES (?5, ?6, ?1, ?2, ?3, ?4, 0, ?7)
                            """
                        ) { (statement) throws(RunStoreError) in
                            try bindKey(statement)
                            try statement.bind(5, seq)
                            try statement.bind(6, record.pipeline)
                            try statement.bind(7, now)
                        }
                        var id: Int64 = 0
                        try connection.query("SELECT last_insert_rowid()") { (row) throws(RunStoreError) in
                            id = row.int64(0)
                        }
                        return id
                    }
                }
            }
            return .fill(LockedSpoolFiller(writer: self, spool: spool, run: record.id, lock: lock))
        } catch {
            await lock.release()
            throw error
        }
    }

    /// Up to `limit` lines of `spool` after row `after`, in order.
    package func spoolLines(_ spool: Int64, after: Int, limit: Int) async throws(LedgerError) -> [String] {
        try await ledger.ledgerCall { () throws(RunStoreError) -> [String] in
            try await journal.withConnection { (connection) throws(RunStoreError) -> [String] in
                var lines: [String] = []
                try connection.query(
                    "SELECT line FROM spool_rows WHERE spool = ?1 AND number > ?2 ORDER BY number LIMIT ?3",
                    bind: { (statement) throws(RunStoreError) in
                        try statement.bind(1, spool)
                        try statement.bind(2, Int64(after))
                        try statement.bind(3, Int64(limit))
                    }
                ) { (row) throws(RunStoreError) in lines.append(row.text(0) ?? "") }
                return lines
            }
        }
    }

    package func completedSpool(step: Int, source: String) async throws(LedgerError) -> SpooledRows? {
        try await completeSpool(step: step, source: source)
    }

    package func discardLines(step: Int, source: String) async throws(LedgerError) {
        let record = self.record
        try await ledger.ledgerCall { () throws(RunStoreError) in
            try await journal.withConnection { (connection) throws(RunStoreError) in
                try connection.execute(
                    """
                    DELETE FROM spool_rows WHERE spool IN (SELECT id FROM spools
                        WHERE identity = ?1 AND generation = ?2 AND step = ?3 AND source = ?4 AND state = 1)
                    """
                ) { (statement) throws(RunStoreError) in
                    try statement.bind(1, record.identity)
                    try statement.bind(2, Int64(record.generation))
                    try statement.bind(3, Int64(step))
                    try statement.bind(4, source)
                }
            }
        }
    }

    /// The complete spool of this run's identity and generation for `step` and `source`, if there is one.
    private func completeSpool(step: Int, source: String) async throws(LedgerError)
        -> SpooledRows?
    {
        try await ledger.ledgerCall { () throws(RunStoreError) -> SpooledRows? in
            try await journal.withConnection { (connection) throws(RunStoreError) -> SpooledRows? in
                var found: SpooledRows?
                try connection.query(
                    """
                    SELECT s.id, s.columns, s.count, s.digest, s.completed_at, r.id FROM spools s JOIN runs r ON r.seq = s.run
                    WHERE s.identity = ?1 AND s.generation = ?2 AND s.step = ?3 AND s.source = ?4 AND s.state = 1
                    """,
                    bind: { (statement) throws(RunStoreError) in
                        try statement.bind(1, record.identity)
                        try statement.bind(2, Int64(record.generation))
                        try statement.bind(3, Int64(step))
                        try statement.bind(4, source)
                    }
                ) { (row) throws(RunStoreError) in found = Self.spooled(row) }
                return found
            }
        }
    }

    /// A complete spool from `id, columns, count, digest, completed_at, run id`.
    private static func spooled(_ row: SQLiteStatement) -> SpooledRows {
        SpooledRows(
            spool: row.int64(0), columns: SpooledRows.columns(fromJSON: row.text(1)), count: row.int(2),
            digest: row.text(3) ?? "",
            run: row.text(5), readAt: row.double(4))
    }

    /// Appends rows to the spool `spool`, numbered on, one transaction a page.
    package func appendSpool(_ spool: Int64, lines: [String], from first: Int) async throws(LedgerError) {
        try await ledger.ledgerCall { () throws(RunStoreError) in
            try await journal.withConnection { (connection) throws(RunStoreError) in
                try connection.transaction { () throws(RunStoreError) in
                    for (offset, line) in lines.enumerated() {
                        try connection.execute("INSERT INTO spool_rows (spool, number, line) VALUES (?1, ?2, ?3)") {
                            (statement) throws(RunStoreError) in
                            try statement.bind(1, spool)
                            try statement.bind(2, Int64(first + offset))
                            try statement.bind(3, line)
                        }
                    }
                }
            }
        }
    }

    /// Marks the spool `spool` complete; throws unless it was being filled.
    package func completeSpool(_ spool: Int64, columns: [String], count: Int, digest: String, now: Double)
        async throws(LedgerError)
    {
        try await ledger.ledgerCall { () throws(RunStoreError) in
            try await journal.withConnection { (connection) throws(RunStoreError) in
                try Self.complete(
                    spool, columns: SpooledRows.columnsJSON(columns), count: count, digest: digest, now: now, connection
                )
            }
        }
    }

    /// `UPDATE` of a spool being filled to complete; throws when it is not being filled (another process took it over).
    private static func complete(
        _ spool: Int64, columns: String, count: Int, digest: String, now: Double, _ connection: SQLiteConnection
    ) throws(RunStoreError) {
        let changed = try connection.execute(
            "UPDATE spools SET state = 1, columns = ?2, count = ?3, digest = ?4, completed_at = ?5 WHERE id = ?1 AND state = 0"
        ) {
            (statement) throws(RunStoreError) in
            try statement.bind(1, spool)
            try statement.bind(2, columns)
            try statement.bind(3, Int64(count))
            try statement.bind(4, digest)
            try statement.bind(5, now)
        }
        guard changed == 1 else {
            throw RunStoreError(
                "the spool was taken over by another process while this one filled it; nothing of it is used")
        }
    }
}
