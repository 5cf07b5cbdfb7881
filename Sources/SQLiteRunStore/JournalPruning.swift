import Foundation
import RunStore

/// Removing runs the journal no longer needs, and giving their space back to the file system: `runs prune`.
struct JournalPruning: Sendable {
    let journal: Journal

    /// Items deleted per transaction, so runs sending meanwhile wait for the journal's lock only briefly.
    static let pruneChunk = 20_000

    func removeRuns(_ ids: [String], dryRun: Bool) async throws(RunStoreError) -> RemovedRuns {
        var removed = RemovedRuns(runs: 0, items: 0, skipRanges: 0)
        for id in ids {
            let run = try await journal.withConnection { (connection) throws(RunStoreError) -> RemovedRuns in
                var removed = RemovedRuns(runs: 0, items: 0, skipRanges: 0)
                var seq: Int64?
                try connection.query(
                    "SELECT seq FROM runs WHERE id = ?1",
                    bind: { (statement) throws(RunStoreError) in
                        try statement.bind(1, id)
                    }
                ) { (row) throws(RunStoreError) in seq = row.int64(0) }
                guard let seq else { return removed }
                let bindSeq = { (statement: SQLiteStatement) throws(RunStoreError) in try statement.bind(1, seq) }
                if dryRun {
                    try connection.query(
                        "SELECT (SELECT count(*) FROM items WHERE run = ?1), (SELECT count(*) FROM skips WHERE run = ?1)",
                        bind: bindSeq
                    ) { (row) throws(RunStoreError) in
                        removed.items += row.int(0)
                        removed.skipRanges += row.int(1)
                    }
                } else {
                    // The run's items in chunks, then its skip ranges and the run itself: a prune cut off halfway leaves
                    // a run that the next prune removes.
                    while true {
                        let deleted = try connection.transaction { () throws(RunStoreError) -> Int in
                            try connection.execute(
                                """
                                DELETE FROM items WHERE (run, step, row) IN (SELECT run, step, row FROM items WHERE run = ?1 LIMIT \(Self.pruneChunk))
                                """, bind: bindSeq)
                        }
                        removed.items += deleted
                        if deleted < Self.pruneChunk { break }
                    }
                    // Its spools: handed to another run of the same identity and generation that stays (a part of the
                    // split run that may still resume); else marked going, so no run reuses them, and removed in chunks.
                    try connection.transaction { () throws(RunStoreError) in
                        try connection.execute(Self.handOverSpools, bind: bindSeq)
                        try connection.execute("UPDATE spools SET state = 2 WHERE run = ?1", bind: bindSeq)
                    }
                    while try connection.transaction({ () throws(RunStoreError) -> Int in
                        try connection.execute(
                            """
                            DELETE FROM spool_rows WHERE (spool, number) IN (SELECT spool, number FROM spool_rows
                                WHERE spool IN (SELECT id FROM spools WHERE run = ?1) LIMIT \(Self.pruneChunk))
                            """, bind: bindSeq)
                    }) == Self.pruneChunk {}
                    try connection.transaction { () throws(RunStoreError) in
                        removed.skipRanges += try connection.execute("DELETE FROM skips WHERE run = ?1", bind: bindSeq)
                        try connection.execute("DELETE FROM spools WHERE run = ?1", bind: bindSeq)
                        try connection.execute("DELETE FROM runs WHERE seq = ?1", bind: bindSeq)
                    }
                }
                removed.runs += 1
                return removed
            }
            removed.runs += run.runs
            removed.items += run.items
            removed.skipRanges += run.skipRanges
        }
        return removed
    }

    /// Gives the free pages back to the file system: `PRAGMA incremental_vacuum` on a journal made with incremental
    /// auto-vacuum; a journal made before that is rewritten whole once (`VACUUM`), which also switches it over, so
    /// later prunes are incremental. The write-ahead log is checkpointed and truncated first and after.
    func reclaimSpace() async throws(RunStoreError) -> ReclaimedSpace {
        try await journal.withConnection { (connection) throws(RunStoreError) -> ReclaimedSpace in
            try connection.query("PRAGMA wal_checkpoint(TRUNCATE)") { _ throws(RunStoreError) in }
            let before = fileSize()
            var mode = 0
            try connection.query("PRAGMA auto_vacuum") { (row) throws(RunStoreError) in mode = row.int(0) }
            let method: String
            if mode == 2 {
                // Each row of the pragma's result frees more pages: read them all.
                try connection.query("PRAGMA incremental_vacuum") { _ throws(RunStoreError) in }
                method = "incremental vacuum"
            } else {
                try connection.executeScript(
                    "PRAGMA auto_vacuum = INCREMENTAL; VACUUM;", doing: "vacuuming the journal")
                method = "VACUUM (once: the journal vacuums incrementally from now on)"
            }
            try connection.query("PRAGMA wal_checkpoint(TRUNCATE)") { _ throws(RunStoreError) in }
            return ReclaimedSpace(before: before, after: fileSize(), method: method)
        }
    }

    /// The journal file and its write-ahead log, in bytes.
    private func fileSize() -> Int64 {
        [journal.path, journal.path + "-wal"].reduce(Int64(0)) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
            return total + size
        }
    }

    /// Gives the spools of run `?1` to the newest other run of the same identity and generation, when there is one: the
    /// parts of a split run share one spool, which stays while any of them does.
    private static let handOverSpools = """
        UPDATE spools SET run = (SELECT r.seq FROM runs r WHERE r.identity = spools.identity AND r.generation = spools.generation
                                 AND r.seq <> ?1 ORDER BY r.seq DESC LIMIT 1)
        WHERE run = ?1 AND EXISTS (SELECT 1 FROM runs r WHERE r.identity = spools.identity AND r.generation = spools.generation AND r.seq <> ?1)
        """
}
