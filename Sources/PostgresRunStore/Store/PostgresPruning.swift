import Foundation
import PostgresNIO
import RunStore

/// Removing runs the store no longer needs, and vacuuming what they leave: `runs prune`.
struct PostgresPruning: Sendable {
    let store: PostgresStore

    /// Items deleted per transaction: each statement stays far inside the store's statement timeout, and runs that are
    /// sending meanwhile are not held up for long.
    static let pruneChunk = 20_000

    func removeRuns(_ ids: [String], dryRun: Bool) async throws(RunStoreError) -> RemovedRuns {
        var removed = RemovedRuns(runs: 0, items: 0, skipRanges: 0)
        for id in ids {
            let seq: Int? = try await store.withConnection("finding a run to prune") { connection in
                var found: Int?
                for try await row in try await connection.query(
                    "SELECT seq FROM pushline.runs WHERE id = \(id)", logger: store.logger)
                {
                    found = try row.decode(Int.self)
                }
                return found
            }
            guard let seq else { continue }
            if dryRun {
                let (items, skips) = try await store.withConnection("counting what pruning removes") { connection in
                    var counts = (0, 0)
                    for try await row in try await connection.query(
                        """
                        SELECT (SELECT count(*) FROM pushline.items WHERE run = \(seq)), (SELECT count(*) FROM pushline.skips WHERE run = \(seq))
                        """, logger: store.logger)
                    {
                        counts = try row.decode((Int, Int).self)
                    }
                    return counts
                }
                removed.items += items
                removed.skipRanges += skips
            } else {
                // The run's items in chunks, then its skip ranges and the run itself: a prune cut off halfway leaves a run
                // that the next prune removes.
                while true {
                    let deleted = try await store.transaction("pruning a run's items") { connection in
                        var count = 0
                        for try await _ in try await connection.query(
                            """
                            DELETE FROM pushline.items
                            WHERE ctid = ANY(ARRAY(SELECT ctid FROM pushline.items WHERE run = \(seq) LIMIT \(Self.pruneChunk))) RETURNING 1
                            """, logger: store.logger)
                        { count += 1 }
                        return count
                    }
                    removed.items += deleted
                    if deleted < Self.pruneChunk { break }
                }
                // Its spools: handed to another run of the same identity and generation that stays (a part of the split
                // run that may still resume); else marked going, so no run reuses them, and removed in chunks.
                try await store.transaction("pruning a run's spools") { connection in
                    try await connection.query(
                        """
                        UPDATE pushline.spools s SET run = (SELECT r.seq FROM pushline.runs r WHERE r.identity = s.identity
                                                             AND r.generation = s.generation AND r.seq <> \(seq) ORDER BY r.seq DESC LIMIT 1)
                        WHERE s.run = \(seq) AND EXISTS (SELECT 1 FROM pushline.runs r WHERE r.identity = s.identity
                                                         AND r.generation = s.generation AND r.seq <> \(seq))
                        """, logger: store.logger)
                    try await connection.query(
                        "UPDATE pushline.spools SET state = 2 WHERE run = \(seq)", logger: store.logger)
                }
                while try await store.transaction(
                    "pruning a run's spooled rows",
                    { connection in
                        var count = 0
                        for try await _ in try await connection.query(
                            """
                            DELETE FROM pushline.spool_rows WHERE ctid = ANY(ARRAY(SELECT ctid FROM pushline.spool_rows
                                WHERE spool IN (SELECT id FROM pushline.spools WHERE run = \(seq)) LIMIT \(Self.pruneChunk))) RETURNING 1
                            """, logger: store.logger)
                        { count += 1 }
                        return count
                    }) == Self.pruneChunk
                {}
                removed.skipRanges += try await store.transaction("pruning a run") { connection in
                    var count = 0
                    for try await _ in try await connection.query(
                        "DELETE FROM pushline.skips WHERE run = \(seq) RETURNING 1",
                        logger: store.logger)
                    { count += 1 }
                    try await connection.query("DELETE FROM pushline.spools WHERE run = \(seq)", logger: store.logger)
                    try await connection.query("DELETE FROM pushline.runs WHERE seq = \(seq)", logger: store.logger)
                    return count
                }
            }
            removed.runs += 1
        }
        return removed
    }

    /// PostgreSQL's `VACUUM` of the tables pruning touches: the space of removed rows is reused by later writes (and
    /// given back to the file system where it ends a table); autovacuum would get there too, later.
    func reclaimSpace() async throws(RunStoreError) -> ReclaimedSpace {
        let before = try await size()
        for table in ["items", "skips", "runs"] {
            // VACUUM cannot run inside a transaction: a connection of its own, outside one.
            try await store.withConnection("vacuuming the run store") { connection in
                try await connection.query(
                    PostgresQuery(unsafeSQL: "VACUUM (ANALYZE) pushline.\(table)"), logger: store.logger)
            }
        }
        return ReclaimedSpace(before: before, after: try await size(), method: "VACUUM (space reused by later runs)")
    }

    /// The bytes of pushline's tables and their indexes.
    private func size() async throws(RunStoreError) -> Int64 {
        try await store.withConnection("measuring the run store") { connection in
            var bytes: Int64 = 0
            for try await row in try await connection.query(
                """
                SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class AS c
                JOIN pg_namespace AS n ON n.oid = c.relnamespace WHERE n.nspname = 'pushline' AND c.relkind = 'r'
                """, logger: store.logger)
            {
                bytes = try row.decode(Int64.self)
            }
            return bytes
        }
    }
}
