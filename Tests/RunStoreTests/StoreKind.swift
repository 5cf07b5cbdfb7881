import Foundation
import PipelineCore
import PostgresRunStore
import RunStore
import SQLiteRunStore
import Synchronization
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
            guard let admin = TestPostgres.adminURL else { throw TestPostgres.missing }
            let database = TestPostgres.databaseName(for: scratch)
            try TestPostgres.createDatabase(database)
            guard
                let store = try await PostgresStore.open(TestPostgres.url(admin, database: database), environment: [:])
            else {
                throw TestPostgres.missing
            }
            return store
        }, remove: { scratch in TestPostgres.dropDatabase(TestPostgres.databaseName(for: scratch)) })

    /// Every implementation the contract runs against: PostgreSQL too when a test server is configured, or
    /// when CI requires it (then a missing server fails every test rather than skipping them).
    static let all: [StoreKind] = TestPostgres.isEnabled ? [.sqlite, .postgres] : [.sqlite]
}

/// The test PostgreSQL server, reached with `psql` for what the product never does (creating databases).
enum TestPostgres {
    /// `postgres://pushline:…@127.0.0.1:PORT/postgres`, from `PUSHLINE_TEST_POSTGRES`.
    static let adminURL = ProcessInfo.processInfo.environment["PUSHLINE_TEST_POSTGRES"].flatMap {
        $0.isEmpty ? nil : $0
    }
    /// True when PostgreSQL tests run: a server is named, or `PUSHLINE_REQUIRE_POSTGRES=1` demands one.
    static let isEnabled = adminURL != nil || ProcessInfo.processInfo.environment["PUSHLINE_REQUIRE_POSTGRES"] == "1"

    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "PUSHLINE_REQUIRE_POSTGRES=1 but PUSHLINE_TEST_POSTGRES names no server (.ci/postgres.sh start DIR)"
        }
    }
    static let missing = Missing()

    /// A database name per scratch directory.
    static func databaseName(for scratch: String) -> String {
        "pushline_test_" + String(scratch.suffix(36).filter { $0.isHexDigit }.prefix(32)).lowercased()
    }

    /// `admin` with another database.
    static func url(_ admin: String, database: String) -> String {
        guard
            let slash = admin.range(
                of: "/", options: .backwards, range: admin.range(of: "@")!.upperBound..<admin.endIndex)
        else {
            return admin + "/" + database
        }
        let query = admin[slash.upperBound...].firstIndex(of: "?").map { String(admin[$0...]) } ?? ""
        return String(admin[..<slash.upperBound]) + database + query
    }

    /// Creates the database unless a first handle on the same scratch did.
    static func createDatabase(_ name: String) throws {
        do {
            try psql("CREATE DATABASE \(name)")
        } catch let failure as PsqlFailure where failure.message.contains("already exists") {
            return
        }
    }

    static func dropDatabase(_ name: String) {
        try? psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs one statement with psql against the admin database.
    static func psql(_ statement: String, database: String? = nil) throws {
        guard let admin = adminURL else { throw missing }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let target = database.map { url(admin, database: $0) } ?? admin
        process.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", target, "-c", statement]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PsqlFailure(statement: statement, message: message) }
    }

    struct PsqlFailure: Error, CustomStringConvertible {
        let statement: String
        let message: String
        var description: String { "psql failed on \(statement): \(message)" }
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
