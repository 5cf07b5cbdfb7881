import Foundation
import PipelineCore
import RunStore
import TestSupport
import Testing

@testable import PostgresRunStore

/// A journal write the store gave up on (and reported failed) must never land afterwards: the run stopped on
/// that failure, and a late commit would make the journal say something the run never acted on.
@Suite(
    "PostgresStore calls past their limit",
    .enabled(
        if: TestPostgres.isEnabled,
        "needs PUSHLINE_TEST_POSTGRES (.ci/postgres.sh start DIR)"))
struct PostgresCallLimitTests {
    @Test("a write held up past its limit fails, and does not commit once what held it up lets go")
    func aWriteGivenUpNeverLandsLater() async throws {
        try await Server.withDatabase { url in
            // The store is opened, and its pool given a connection, with the product's limits, so a busy machine
            // (every suite at once in CI) cannot fail the setup; only the write under test runs with a short one.
            let store = try #require(try await PostgresStore.open(url, environment: [:]))
            defer { Task { await store.close() } }
            let run = try await store.startRun(identity: "i", pipeline: "/p.yaml", pid: 1, now: 1000)
            _ = try await store.runs(identity: "i", limit: 1)
            store.calls.limitQueries(to: .seconds(1))
            let ledger = store.ledger(for: run, lock: nil)
            let item = LedgerItem(key: LedgerKey(step: 0, row: 1), stepId: "send", origin: "rows.csv:2", digest: "d")

            // Another session holds the items table, so the write waits on the server. It holds it until this test
            // ends it, and the write starts only once the lock is seen granted: a slow psql start cannot let it through.
            let holder = try Server.background(
                "BEGIN; LOCK TABLE pushline.items IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(120); COMMIT;",
                database: url)
            let held = """
                SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                WHERE c.relname = 'items' AND l.mode = 'AccessExclusiveLock' AND l.granted
                  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """
            let deadline = ContinuousClock.now + .seconds(60)
            while holder.isRunning, try await TestPostgres.query(held, database: url) != "1",
                ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(100))
            }
            try #require(try await TestPostgres.query(held, database: url) == "1", "the holder never took the lock")
            let error = await #expect(throws: LedgerError.self) { try await ledger.markSending([item]) }
            // The write gave up at its limit; it was not merely slow until the table was let go.
            #expect(error?.message.contains("no answer within") == true, "\(error?.message ?? "")")
            #expect(holder.isRunning, "the holder still held the table when the write gave up")

            // Let go of the table: its session ends and its transaction rolls back.
            try await TestPostgres.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                    + "AND query LIKE '%pg_sleep(120)%' AND pid <> pg_backend_pid()", database: url)
            while holder.isRunning { try await Task.sleep(for: .milliseconds(50)) }
            try await Task.sleep(for: .seconds(1))
            // Read past the store's 5 s pause after an unreachable moment, through psql.
            #expect(
                try await TestPostgres.query("SELECT count(*) FROM pushline.items", database: url) == "0",
                "the write reported failed left nothing behind")
            #expect(
                try await TestPostgres.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in%'",
                    database: url) == "0", "no session was left holding a transaction open")
        }
    }
}

@Suite(
    "PostgresStore schema migration",
    .enabled(
        if: TestPostgres.isEnabled,
        "needs PUSHLINE_TEST_POSTGRES (.ci/postgres.sh start DIR)"))
struct PostgresMigrationTests {
    @Test(
        "a version 3 store is brought to 5: its runs keep their data, are generation 0 and are filed under their pipeline's name"
    )
    func fromVersion3() async throws {
        try await Server.withDatabase { url in
            let older = (1...3).flatMap { PostgresSchema.migrations[$0] ?? [] }
            for statement in older { try await TestPostgres.query(statement, database: url) }
            try await TestPostgres.query(
                "UPDATE pushline.meta SET value = '3' WHERE key = 'schema_version'", database: url)
            try await TestPostgres.query(
                "INSERT INTO pushline.runs (id, identity, pipeline, started_at, status, pid, resumes, shard) "
                    + "VALUES ('r1', 'i', '/p.yaml', 1000, 'completed', 7, 0, '1/4')", database: url)
            let store = try #require(try await PostgresStore.open(url, environment: [:]))
            defer { Task { await store.close() } }
            let runs = try await store.runs(identity: "i", limit: 5)
            #expect(
                runs.map(\.id) == ["r1"] && runs.map(\.generation) == [0] && runs.first?.shard?.description == "1/4")
            #expect(runs.first?.pipeline == "p" && runs.first?.path == "/p.yaml")
            #expect(
                try await TestPostgres.query(
                    "SELECT value FROM pushline.meta WHERE key = 'schema_version'", database: url)
                    == "\(PostgresSchema.version)")
        }
    }

    @Test(
        "a version 4 store (the release before names) is brought to 5: runs are filed under their pipeline's name with their path kept, declared keys under the pipeline, and the run resumes"
    )
    func fromVersion4() async throws {
        try await Server.withDatabase { url in
            for statement in (1...4).flatMap({ PostgresSchema.migrations[$0] ?? [] }) {
                try await TestPostgres.query(statement, database: url)
            }
            try await TestPostgres.query(
                "UPDATE pushline.meta SET value = '4' WHERE key = 'schema_version'", database: url)
            try await TestPostgres.query(
                """
                INSERT INTO pushline.runs (seq, id, identity, pipeline, started_at, status, pid) VALUES
                    (1, 'r1', 'i1', '/srv/a/pipelines/digest.yaml', 1000, 'completed', 1),
                    (2, 'r2', 'i2', '/srv/b/pipelines/digest.yaml', 2000, 'interrupted', 2),
                    (3, 'r3', 'i3', '/srv/a/pipelines/news.yml', 3000, 'completed', 3)
                """, database: url)
            try await TestPostgres.query(
                """
                INSERT INTO pushline.items (run, step, "row", step_id, origin, digest, state, attempts, updated_at, idempotency_key) VALUES
                    (1, 1, 1, 'send', 'rows.csv:2', 'd1', 'accepted', 1, 1000, 'step1:digest-u1'),
                    (2, 1, 1, 'send', 'rows.csv:2', 'd1', 'accepted', 1, 2000, 'request:00112233445566778899aabbccddeeff')
                """, database: url)
            let store = try #require(try await PostgresStore.open(url, environment: [:]))
            defer { Task { await store.close() } }
            let runs = try await store.runs(limit: 10)
            #expect(runs.map(\.pipeline) == ["news", "digest", "digest"])
            #expect(
                runs.map(\.path) == [
                    "/srv/a/pipelines/news.yml", "/srv/b/pipelines/digest.yaml", "/srv/a/pipelines/digest.yaml",
                ])
            let keys =
                try await store.items(run: "r1", states: [], limit: 10).map(\.idempotencyKey)
                + store.items(run: "r2", states: [], limit: 10).map(\.idempotencyKey)
            #expect(keys == ["digest/step1:digest-u1", "request:00112233445566778899aabbccddeeff"])
            #expect(
                try await store.pipelineHome(name: "digest")
                    == PipelineHome(
                        name: "digest", path: "/srv/b/pipelines/digest.yaml",
                        contentDigest: nil, declared: false, seenAt: 2000))
            let latest = try #require(try await store.latestRun(identity: "i2"))
            let resumed = try await store.resumeRun(
                id: latest.id, path: "/srv/c/digest.yaml", pid: 9, now: 4000, lock: nil)
            #expect(resumed.status == .running && resumed.path == "/srv/c/digest.yaml" && resumed.pipeline == "digest")
        }
    }
}

extension Server {
    /// Starts psql running `sql` in the background; the caller waits for it.
    static func background(_ sql: String, database url: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
