import Foundation
import PipelineCore
import RunStore
import Testing

@testable import SQLiteRunStore

/// Pruning a SQLite journal of a million items: the old runs and their items go, what is still needed stays, and the
/// file gives its space back.
@Suite struct JournalPruneTests {
    private static func fileSize(_ path: String) -> Int64 {
        [path, path + "-wal"].reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    @Test(
        "a million items: prune removes the old run (and would the partial one), keeps the run in its window, and shrinks the file"
    )
    func aMillionItems() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            let journal = try Journal(path: path)
            let now = Date().timeIntervalSince1970
            let window = try await journal.startRun(
                identity: "w", pipeline: "digest", path: nil, shard: nil, generation: 0, dedupeWindow: 86400,
                pid: 1, now: now - 3600)
            try await journal.finishRun(id: window.id, state: .completed, exitCode: 0, summary: nil, now: now - 3000)
            let unfinished = try await journal.startRun(
                identity: "u", pipeline: "digest", path: nil, shard: nil, generation: 0, dedupeWindow: 43200,
                pid: 1, now: now - 50 * 86400)
            try await journal.finishRun(
                id: unfinished.id, state: .partial, exitCode: 3, summary: nil, now: now - 50 * 86400)
            let old = try await journal.startRun(
                identity: "o", pipeline: "digest", path: nil, shard: nil, generation: 0, dedupeWindow: 43200,
                pid: 1, now: now - 40 * 86400)
            try await journal.finishRun(
                id: old.id, state: .completed, exitCode: 0, summary: nil, now: now - 40 * 86400 + 600)
            for (run, count) in [(window, 10), (unfinished, 10)] {
                try await journal.ledger(run: run.id).record(
                    (1...count).map { LedgerOutcome(item: item(1, $0), state: .accepted) })
            }
            try await journal.withConnection { (connection) throws(RunStoreError) in
                try connection.executeScript(
                    """
                    INSERT INTO steps (run, step, step_id) VALUES ((SELECT seq FROM runs WHERE id = '\(old.id)'), 1, 'send');
                    WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1000000)
                    INSERT INTO items (run, step, row, origin, digest, idempotency_key, target, state, attempts, notification_id,
                                       updated_at)
                    SELECT (SELECT seq FROM runs WHERE id = '\(old.id)'), 1, n, 'rows.csv:' || (n + 1), 'digest-' || n,
                           'request:' || hex(randomblob(16)), '$UserId:{u' || n || '}', \(StoredState.code(.accepted)), 1, hex(randomblob(16)),
                           \(now - 40 * 86400)
                    FROM g;
                    INSERT INTO skips (run, step, first_row, last_row, step_id, origin, first_line, prior_run, prior_step, prior_first_row)
                        VALUES ((SELECT seq FROM runs WHERE id = '\(old.id)'), 2, 1, 10, 'send', 'rows.csv', 2, 'x', 1, 1);
                    PRAGMA wal_checkpoint(TRUNCATE);
                    """)
            }
            #expect(try await journal.counts(run: old.id).first?.count == 1_000_000)
            let before = Self.fileSize(path)
            #expect(before > 100_000_000, "\(before)")

            let policy = PrunePolicy(olderThan: 30 * 86400)
            let plan = policy.plan(try await journal.runs(limit: 100), now: now) { _ in false }
            // A partial run never resumes, so the plan does not keep it for one; this test removes the old run's million alone.
            #expect(
                Set(plan.remove.map(\.id)) == [old.id, unfinished.id] && plan.recent.map(\.id) == [window.id]
                    && plan.unfinished.isEmpty)
            let dry = try await journal.removeRuns([old.id], dryRun: true)
            #expect(dry == RemovedRuns(runs: 1, items: 1_000_000, skipRanges: 1))
            #expect(try await journal.counts(run: old.id).first?.count == 1_000_000, "a dry run removes nothing")

            let removed = try await journal.removeRuns([old.id], dryRun: false)
            #expect(removed == dry)
            #expect(try await journal.run(matching: old.id) == nil)
            #expect(try await journal.runs(limit: 10).map(\.id).sorted() == [window.id, unfinished.id].sorted())
            await #expect(
                try journal.counts(run: window.id) == [StepCount(step: 1, stepId: "send", state: .accepted, count: 10)])

            let space = try await journal.reclaimSpace()
            #expect(space.method == "incremental vacuum")
            #expect(space.after < before / 20, "the file gave its space back: \(before) → \(space.after)")
            #expect(Self.fileSize(path) == space.after)
        }
    }

    @Test("a journal made before incremental vacuum is vacuumed whole once, and incrementally from then on")
    func anOlderFileIsConvertedOnce() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            // A journal of the first schema, as an early pushline made it: without incremental vacuum.
            try SQLiteConnection(path: path).executeScript(JournalSchema.version1)
            let journal = try Journal(path: path)
            let mode = try await journal.withConnection { (connection) throws(RunStoreError) -> Int in
                var mode = -1
                try connection.query("PRAGMA auto_vacuum") { (row) throws(RunStoreError) in mode = row.int(0) }
                return mode
            }
            #expect(mode == 0)
            #expect(try await journal.reclaimSpace().method.hasPrefix("VACUUM"))
            #expect(try await journal.reclaimSpace().method == "incremental vacuum")
        }
    }
}
