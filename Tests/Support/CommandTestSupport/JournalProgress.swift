import CSQLite
import Foundation

/// How far a run in another process has got: the items its SQLite journal holds, sent or being sent (0 before it has any). Tests that
/// stop a run half-way wait for this rather than for a fixed time, which a loaded machine can spend starting up.
package func journalItemCount(_ path: String) -> Int {
    var db: OpaquePointer?
    defer { sqlite3_close(db) }
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return 0 }
    sqlite3_busy_timeout(db, 5_000)
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(db, "SELECT count(*) FROM items", -1, &statement, nil) == SQLITE_OK,
        sqlite3_step(statement) == SQLITE_ROW
    else { return 0 }
    return Int(sqlite3_column_int64(statement, 0))
}

/// Waits until the journal at `path` holds at least `count` items, `running` has ended, or `timeout` seconds pass.
package func waitForJournalItems(_ path: String, atLeast count: Int, of running: PushlineProcess, timeout: Double = 120)
    async throws
{
    let deadline = Date().addingTimeInterval(timeout)
    while running.process.isRunning, journalItemCount(path) < count, Date() < deadline {
        try await Task.sleep(for: .milliseconds(50))
    }
}
