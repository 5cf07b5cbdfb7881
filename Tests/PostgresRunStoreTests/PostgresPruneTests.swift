import Foundation
import PipelineCore
import RunStore
import TestSupport
import Testing

@testable import PostgresRunStore

/// Pruning a PostgreSQL store of a million items: the old run goes in chunks, what is still needed stays, and VACUUM
/// leaves the items table's space free (the table's empty end given back).
@Suite(
    "PostgresStore pruning",
    .enabled(if: TestPostgres.isEnabled, "needs PUSHLINE_TEST_POSTGRES (.ci/postgres.sh start DIR)"))
struct PostgresPruneTests {
    @Test(
        "a million items: prune removes the old run (and would the partial one), keeps the run in its window, and vacuums"
    )
    func aMillionItems() async throws {
        try await Server.withDatabase { url in
            let store = try #require(try await PostgresStore.open(url, environment: [:], create: true))
            defer { Task { await store.close() } }
            let now = Date().timeIntervalSince1970
            let window = try await store.startRun(
                identity: "w", pipeline: "digest", path: nil, shard: nil, generation: 0, dedupeWindow: 86400,
                pid: 1, now: now - 3600)
            try await store.finishRun(id: window.id, state: .completed, exitCode: 0, summary: nil, now: now - 3000)
            let unfinished = try await store.startRun(
                identity: "u", pipeline: "digest", path: nil, shard: nil, generation: 0,
                dedupeWindow: 43200, pid: 1, now: now - 50 * 86400)
            try await store.finishRun(
                id: unfinished.id, state: .partial, exitCode: 3, summary: nil, now: now - 50 * 86400)
            let old = try await store.startRun(
                identity: "o", pipeline: "digest", path: nil, shard: nil, generation: 0, dedupeWindow: 43200,
                pid: 1, now: now - 40 * 86400)
            try await store.finishRun(
                id: old.id, state: .completed, exitCode: 0, summary: nil, now: now - 40 * 86400 + 600)
            // The kept runs' items first, so the old run's million end the table and VACUUM can give that end back.
            for run in [window, unfinished] {
                try await store.ledger(for: run, lock: nil).record(
                    (1...10).map {
                        LedgerOutcome(
                            item: LedgerItem(
                                key: LedgerKey(step: 1, row: $0), stepId: "send", origin: "rows.csv:\($0 + 1)",
                                digest: "d\($0)"),
                            state: .accepted)
                    })
            }
            try await TestPostgres.query(
                """
                INSERT INTO pushline.items (run, step, "row", step_id, origin, digest, idempotency_key, target, state, attempts,
                                            notification_id, retriable, updated_at)
                SELECT (SELECT seq FROM pushline.runs WHERE id = '\(old.id)'), 1, g, 'send', 'rows.csv:' || (g + 1), 'digest-' || g,
                       'request:' || md5(g::text), '$UserId:{u' || g || '}', 'accepted', 1, md5((g + 7)::text), false, \(now - 40 * 86400)
                FROM generate_series(1, 1000000) AS g;
                INSERT INTO pushline.skips (run, step, first_row, last_row, step_id, origin, first_line, prior_run, prior_step, prior_first_row)
                    VALUES ((SELECT seq FROM pushline.runs WHERE id = '\(old.id)'), 2, 1, 10, 'send', 'rows.csv', 2, 'x', 1, 1);
                """, database: url)
            let heapBefore =
                Int64(try await TestPostgres.query("SELECT pg_relation_size('pushline.items')", database: url)) ?? 0
            #expect(heapBefore > 50_000_000, "\(heapBefore)")

            let plan = PrunePolicy(olderThan: 30 * 86400).plan(try await store.runs(limit: 100), now: now) { _ in false
            }
            // A partial run never resumes, so the plan does not keep it for one; this test removes the old run's million alone.
            #expect(
                Set(plan.remove.map(\.id)) == [old.id, unfinished.id] && plan.recent.map(\.id) == [window.id]
                    && plan.unfinished.isEmpty)
            let dry = try await store.removeRuns([old.id], dryRun: true)
            #expect(dry == RemovedRuns(runs: 1, items: 1_000_000, skipRanges: 1))
            #expect(
                try await TestPostgres.query("SELECT count(*) FROM pushline.items", database: url) == "1000020",
                "a dry run removes nothing")

            let removed = try await store.removeRuns([old.id], dryRun: false)
            #expect(removed == dry)
            #expect(try await store.run(matching: old.id) == nil)
            #expect(try await store.runs(limit: 10).map(\.id).sorted() == [window.id, unfinished.id].sorted())
            #expect(
                try await store.counts(run: window.id) == [
                    StepCount(step: 1, stepId: "send", state: .accepted, count: 10)
                ])

            let space = try await store.reclaimSpace()
            #expect(space.method.hasPrefix("VACUUM") && space.after < space.before, "\(space)")
            let heapAfter =
                Int64(try await TestPostgres.query("SELECT pg_relation_size('pushline.items')", database: url)) ?? -1
            #expect(heapAfter < heapBefore / 20, "VACUUM gave the table's empty end back: \(heapBefore) → \(heapAfter)")
        }
    }
}
