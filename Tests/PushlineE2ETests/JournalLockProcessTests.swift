import CSQLite
import CommandTestSupport
import Foundation
import TestSupport
import Testing

/// The journal held by another process for a while (a `runs prune`, a second pipeline's transaction, a backup tool)
/// holds up only the journal's own work: the run waits for it, and the requests it has in flight finish as usual.
@Suite struct JournalLockProcessTests {
    @Test func aJournalLockedForThreeSecondsMidRunFailsNoRequestAndSendsEveryRowOnce() async throws {
        let batch = BatchRunProcessTests()
        let scratch = try await BatchRunProcessTests.Scratch(users: 3000)
        let (emulator, base, connection) = try await batch.emulator()
        try await batch.register(scratch, connection)
        let report = scratch.directory + "/report.json"
        let run = try PushlineProcess(
            ["run", batch.paced, "--report", report, "--quiet"], environment: batch.environment(scratch, connection))
        try await waitForJournalItems(scratch.journal, atLeast: 300, of: run)
        #expect(run.process.isRunning, "the run ended before the journal was locked: \(run.stdout)")
        try await holdingWriteLock(on: scratch.journal) { try await Task.sleep(for: .seconds(3)) }

        #expect(try await run.waitForExit(timeout: 120) == 0, "\(run.stdout)")
        let counts = try batch.items(report)
        #expect(counts["accepted"] == 3000 && counts["failed", default: 0] == 0 && counts["unknown", default: 0] == 0)
        let delivered = try await batch.deliveries(base)
        #expect(delivered.count == 3000 && delivered.values.allSatisfy { $0 == 1 })
        #expect(try await emulator.stop() == 0)
    }

    /// Runs `body` while a write transaction of this process holds the SQLite journal at `path` (as another process's
    /// would), then commits it.
    func holdingWriteLock(on path: String, _ body: () async throws -> Void) async throws {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        try #require(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        // The run holds the lock for a moment at a time: wait for it as any writer would.
        sqlite3_busy_timeout(db, 5_000)
        try #require(sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
        try await body()
        try #require(sqlite3_exec(db, "COMMIT", nil, nil, nil) == SQLITE_OK)
    }
}
