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
