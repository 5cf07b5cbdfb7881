import Foundation
import PipelineCore
@testable import PostgresRunStore
import RunStore
import Testing

/// A journal write the store gave up on (and reported failed) must never land afterwards: the run stopped on
/// that failure, and a late commit would make the journal say something the run never acted on.
@Suite("PostgresStore calls past their limit", .enabled(if: Server.admin != nil || Server.required,
                                                        "needs PUSHLINE_TEST_POSTGRES (.ci/postgres.sh start DIR)"))
struct PostgresCallLimitTests {
    @Test("a write held up past its limit fails, and does not commit once what held it up lets go")
    func aWriteGivenUpNeverLandsLater() async throws {
        try await Server.withDatabase { url in
            // connect_timeout=1: a lease may wait 3 s; the write may then run 1 s.
            let store = try #require(try await PostgresStore.open(url + "&connect_timeout=1", environment: [:], create: true,
                                                                  queryLimit: .seconds(1)))
            defer { Task { await store.close() } }
            let run = try await store.startRun(identity: "i", pipeline: "/p.yaml", pid: 1, now: 1000)
            let ledger = store.ledger(for: run, lock: nil)
            let item = LedgerItem(key: LedgerKey(step: 0, row: 1), stepId: "send", origin: "rows.csv:2", digest: "d")

            // Another session holds the items table for 8 s, so the write waits on the server.
            let holder = try Server.background("BEGIN; LOCK TABLE pushline.items IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(8); COMMIT;",
                                               database: url)
            try await Task.sleep(for: .milliseconds(500))
            let started = ContinuousClock.now
            let error = await #expect(throws: LedgerError.self) { try await ledger.markSending([item]) }
            let waited = ContinuousClock.now - started
            #expect(waited < .seconds(7), "the write gave up at its limit (\(waited)), before the table was let go")
            #expect(error?.message.contains("no answer within") == true, "\(error?.message ?? "")")

            holder.waitUntilExit()
            #expect(holder.terminationStatus == 0)
            try await Task.sleep(for: .seconds(1))
            // Read past the store's 5 s pause after an unreachable moment, through psql.
            #expect(try Server.query("SELECT count(*) FROM pushline.items", database: url) == "0",
                    "the write reported failed left nothing behind")
            #expect(try Server.query("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in%'",
                                     database: url) == "0", "no session was left holding a transaction open")
        }
    }
}

@Suite("PostgresStore schema migration", .enabled(if: Server.admin != nil || Server.required,
                                                 "needs PUSHLINE_TEST_POSTGRES (.ci/postgres.sh start DIR)"))
struct PostgresMigrationTests {
    @Test("a version 3 store is brought to 4: its runs keep their data and are generation 0")
    func fromVersion3() async throws {
        try await Server.withDatabase { url in
            let older = (1...3).flatMap { PostgresSchema.migrations[$0] ?? [] }
            for statement in older { try Server.query(statement, database: url) }
            try Server.query("UPDATE pushline.meta SET value = '3' WHERE key = 'schema_version'", database: url)
            try Server.query("INSERT INTO pushline.runs (id, identity, pipeline, started_at, status, pid, resumes, shard) "
                             + "VALUES ('r1', 'i', '/p.yaml', 1000, 'completed', 7, 0, '1/4')", database: url)
            let store = try #require(try await PostgresStore.open(url, environment: [:]))
            defer { Task { await store.close() } }
            let runs = try await store.runs(identity: "i", limit: 5)
            #expect(runs.map(\.id) == ["r1"] && runs.map(\.generation) == [0] && runs.first?.shard?.description == "1/4")
            #expect(try Server.query("SELECT value FROM pushline.meta WHERE key = 'schema_version'", database: url) == "4")
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
