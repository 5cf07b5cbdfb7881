import Foundation
import Logging
import PipelineCore
import PostgresNIO
import RunStore

/// Rows a step produced, spooled in `pushline.spools` and `pushline.spool_rows` (see `RowSpool`): every part of a
/// split run, on any machine, reads the one spool.
extension PostgresLedger: RowSpool, SpoolWriting {
    /// A ledger for a started run keeps rows; a read-only view does not.
    var rowSpool: (any RowSpool)? { record == nil || run == nil ? nil : self }

    func claimSpool(step: Int, source: String, now: Double) async throws(LedgerError) -> SpoolClaim {
        guard let record else { throw LedgerError("this view of the run store keeps no rows") }
        if let complete = try await completeSpool(step: step, source: source, of: record) { return .complete(complete) }
        let lock: any RunLock
        do {
            switch try await store.lock(
                pipeline: record.spoolLockName(step: step, source: source), holder: .current(now: now))
            {
            case .held: return .busy
            case .acquired(let taken): lock = taken
            }
        } catch {
            throw LedgerError(error.message)
        }
        do throws(LedgerError) {
            // Another part may have completed it between the look and the lock.
            if let complete = try await completeSpool(step: step, source: source, of: record) {
                await lock.release()
                return .complete(complete)
            }
            let (identity, generation, pipeline, fence) = (record.identity, record.generation, record.pipeline, fence)
            let spool = try await ledgerCall {
                try await self.store.transaction("starting a spool") { connection -> Int64 in
                    let seq = try await self.runSeq(connection)
                    try await self.store.checkFence(fence, connection)
                    // What a filler that died left goes (its rows with it); the rows are read again.
                    try await connection.query(
                        """
                        DELETE FROM pushline.spools
                        WHERE identity = \(identity) AND generation = \(generation) AND step = \(step) AND source = \(source) AND state <> 1
                        """, logger: self.store.logger)
                    var id: Int64 = 0
                    for try await row in try await connection.query(
                        """
                        INSERT INTO pushline.spools (run, pipeline, identity, generation, step, source, state, started_at)
                        VALUES (\(seq), \(pipeline), \(identity), \(generation), \(step), \(source), 0, \(now)) RETURNING id
                        """, logger: self.store.logger)
                    {
                        id = try row.decode(Int64.self)
                    }
                    return id
                }
            }
            return .fill(LockedSpoolFiller(writer: self, spool: spool, run: record.id, lock: lock))
        } catch {
            await lock.release()
            throw error
        }
    }

    func spoolLines(_ spool: Int64, after: Int, limit: Int) async throws(LedgerError) -> [String] {
        try await ledgerCall {
            try await self.store.withConnection("reading spooled rows") { connection in
                var lines: [String] = []
                for try await row in try await connection.query(
                    """
                    SELECT line FROM pushline.spool_rows WHERE spool = \(spool) AND number > \(after) ORDER BY number LIMIT \(limit)
                    """, logger: self.store.logger)
                {
                    lines.append(try row.decode(String.self))
                }
                return lines
            }
        }
    }

    func completedSpool(step: Int, source: String) async throws(LedgerError) -> SpooledRows? {
        guard let record else { return nil }
        return try await completeSpool(step: step, source: source, of: record)
    }

    func discardLines(step: Int, source: String) async throws(LedgerError) {
        guard let record else { return }
        let (identity, generation) = (record.identity, record.generation)
        try await write("discarding spooled rows") { connection, _, _ in
            try await connection.query(
                """
                DELETE FROM pushline.spool_rows WHERE spool IN (SELECT id FROM pushline.spools
                    WHERE identity = \(identity) AND generation = \(generation) AND step = \(step) AND source = \(source) AND state = 1)
                """, logger: self.store.logger)
        }
    }

    /// The complete spool of this run's identity and generation for `step` and `source`, if there is one.
    private func completeSpool(step: Int, source: String, of record: RunRecord) async throws(LedgerError)
        -> SpooledRows?
    {
        let (identity, generation) = (record.identity, record.generation)
        return try await ledgerCall {
            try await self.store.withConnection("finding spooled rows") { connection in
                try await Self.spooled(
                    connection.query(
                        """
                        SELECT s.id, s.columns, s.count, s.digest, s.completed_at, r.id FROM pushline.spools s JOIN pushline.runs r ON r.seq = s.run
                        WHERE s.identity = \(identity) AND s.generation = \(generation) AND s.step = \(step) AND s.source = \(source)
                          AND s.state = 1
                        """, logger: self.store.logger))
            }
        }
    }

    /// The complete spool the rows `id, columns, count, digest, completed_at, run id` describe (the first).
    private static func spooled(_ rows: PostgresRowSequence) async throws -> SpooledRows? {
        var found: SpooledRows?
        for try await row in rows {
            let (id, columns, count, digest, completedAt, run) = try row.decode(
                (Int64, String?, Int64?, String?, Double?, String).self)
            found = SpooledRows(
                spool: id, columns: SpooledRows.columns(fromJSON: columns), count: Int(count ?? 0),
                digest: digest ?? "",
                run: run, readAt: completedAt ?? 0)
        }
        return found
    }

    /// Appends rows to the spool `spool`, numbered on from `first`, in one fenced transaction.
    func appendSpool(_ spool: Int64, lines: [String], from first: Int) async throws(LedgerError) {
        let numbers = (first..<(first + lines.count)).map(Int64.init)
        try await write("spooling rows") { connection, _, _ in
            try await connection.query(
                """
                INSERT INTO pushline.spool_rows (spool, number, line)
                SELECT \(spool), n, l FROM unnest(\(numbers)::bigint[], \(lines)::text[]) AS t(n, l)
                """, logger: self.store.logger)
        }
    }

    /// Marks the spool `spool` complete; throws unless it was being filled.
    func completeSpool(_ spool: Int64, columns: [String], count: Int, digest: String, now: Double)
        async throws(LedgerError)
    {
        let columnsJSON = SpooledRows.columnsJSON(columns)
        try await write("completing a spool") { connection, _, _ in
            try await Self.complete(
                spool, columns: columnsJSON, count: count, digest: digest, now: now, connection,
                logger: self.store.logger)
        }
    }

    /// `UPDATE` of a spool being filled to complete; throws when it is not being filled (another process took it over).
    private static func complete(
        _ spool: Int64, columns: String, count: Int, digest: String, now: Double, _ connection: PostgresConnection,
        logger: Logger
    ) async throws {
        var changed = 0
        for try await _ in try await connection.query(
            """
            UPDATE pushline.spools SET state = 1, columns = \(columns), count = \(count), digest = \(digest), completed_at = \(now)
            WHERE id = \(spool) AND state = 0 RETURNING 1
            """, logger: logger)
        { changed += 1 }
        guard changed == 1 else {
            throw RunStoreError(
                "the spool was taken over by another process while this one filled it; nothing of it is used")
        }
    }
}
