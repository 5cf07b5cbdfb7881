import Foundation
import PipelineCore
import PostgresRunStore
import RunStore
import SQLiteRunStore
import Synchronization
import TestSupport
import Testing

/// One implementation of `RunStore` under the contract suite. Every test in this target runs once per
/// kind in `all`; a new store joins by adding its kind here, and must pass everything unchanged.
struct StoreKind: Sendable, CustomTestStringConvertible {
    /// How the test names it.
    let name: String
    /// Opens the store kept in `scratch` (a fresh directory per test). Opening the same scratch twice gives
    /// two handles on one store, as two processes would have.
    let open: @Sendable (_ scratch: String) async throws -> any RunStore
    /// Removes what `open` made outside `scratch`.
    let remove: @Sendable (_ scratch: String) async -> Void

    var testDescription: String { name }

    /// The SQLite journal, with its file lock.
    static let sqlite = StoreKind(
        name: "SQLite journal", open: { scratch in try Journal(path: scratch + "/journal.sqlite") },
        remove: { _ in })

    /// The PostgreSQL store, in a database of its own per test on the server `PUSHLINE_TEST_POSTGRES` names
    /// (`.ci/postgres.sh start` runs one).
    static let postgres = StoreKind(
        name: "PostgreSQL",
        open: { scratch in
            let database = databaseName(for: scratch)
            try await TestPostgres.createDatabase(database, allowingExisting: true)
            // Room to connect while every suite starts at once on a small machine: nothing here is about time limits.
            let url = try TestPostgres.url(database: database, adding: "connect_timeout=60")
            guard let store = try await PostgresStore.open(url, environment: [:]) else { throw TestPostgres.Missing() }
            return store
        }, remove: { scratch in await TestPostgres.dropDatabase(databaseName(for: scratch)) })

    /// Every implementation the contract runs against: PostgreSQL too when a test server is configured, or
    /// when CI requires it (then a missing server fails every test rather than skipping them).
    static let all: [StoreKind] = TestPostgres.isEnabled ? [.sqlite, .postgres] : [.sqlite]

    /// A database name per scratch directory.
    static func databaseName(for scratch: String) -> String {
        "pushline_test_" + String(scratch.suffix(36).filter { $0.isHexDigit }.prefix(32)).lowercased()
    }
}

/// Runs `body` with a fresh, empty store of `kind` and a way to open a second handle on it (`reopen`); every
/// handle is closed afterwards.
func withStore<T>(
    _ kind: StoreKind, _ body: (any RunStore, _ reopen: () async throws -> any RunStore) async throws -> T
) async throws -> T {
    let scratch = FileManager.default.temporaryDirectory.path + "/RunStoreTests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    let opened = Mutex<[any RunStore]>([])
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    do {
        let store = try await kind.open(scratch)
        opened.withLock { $0.append(store) }
        let result = try await body(store) {
            let another = try await kind.open(scratch)
            opened.withLock { $0.append(another) }
            return another
        }
        for handle in opened.withLock({ $0 }) { await handle.close() }
        await kind.remove(scratch)
        return result
    } catch {
        for handle in opened.withLock({ $0 }) { await handle.close() }
        await kind.remove(scratch)
        throw error
    }
}

extension RunStore {
    /// The ledger of `run` without a lock (tests that are not about fencing).
    func ledger(for run: RunRecord) -> any ItemLedger { ledger(for: run, lock: nil) }
}

/// An item of step `step` at `row`, with a predictable origin and digest.
func item(_ step: Int, _ row: Int, stepId: String = "send") -> LedgerItem {
    LedgerItem(key: LedgerKey(step: step, row: row), stepId: stepId, origin: "rows.csv:\(row)", digest: "digest-\(row)")
}

/// 2026-11-22 04:12:00 UTC.
let novemberMorning = 1_795_320_720.0
