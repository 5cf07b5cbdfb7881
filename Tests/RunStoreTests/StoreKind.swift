import Foundation
import PipelineCore
import RunJournal
import RunStore
import Testing

/// One implementation of `RunStore` under the contract suite. Every test in this target runs once per
/// kind in `all`; a new store joins by adding its kind here, and must pass everything unchanged.
struct StoreKind: Sendable, CustomTestStringConvertible {
    /// How the test names it.
    let name: String
    /// Opens the store kept in `scratch` (a fresh directory per test). Opening the same scratch twice gives
    /// two handles on one store, as two processes would have.
    let open: @Sendable (_ scratch: String) throws -> any RunStore

    var testDescription: String { name }

    /// The SQLite journal, with its file lock.
    static let sqlite = StoreKind(name: "SQLite journal") { scratch in try Journal(path: scratch + "/journal.sqlite") }

    /// Every implementation the contract runs against.
    static let all: [StoreKind] = [.sqlite]
}

/// Runs `body` with a fresh, empty store of `kind` and a way to open a second handle on it (`reopen`).
func withStore<T>(_ kind: StoreKind, _ body: (any RunStore, _ reopen: () throws -> any RunStore) async throws -> T) async throws -> T {
    let scratch = FileManager.default.temporaryDirectory.path + "/RunStoreTests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let store = try kind.open(scratch)
    return try await body(store) { try kind.open(scratch) }
}

/// An item of step `step` at `row`, with a predictable origin and digest.
func item(_ step: Int, _ row: Int, stepId: String = "send") -> LedgerItem {
    LedgerItem(key: LedgerKey(step: step, row: row), stepId: stepId, origin: "rows.csv:\(row)", digest: "digest-\(row)")
}

/// 2026-11-22 04:12:00 UTC.
let novemberMorning = 1_795_320_720.0
