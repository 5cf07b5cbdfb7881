// swift-format-ignore-file: AmbiguousTrailingClosureOverload

// (`withTemporaryDirectory` has a synchronous and an asynchronous form under one name, as the standard library's
// `with…` functions do.)
import Foundation
import PipelineCore
import RunStore
import SQLiteRunStore

/// Runs `body` with a fresh directory under the system's temporary directory, removed afterwards.
///
/// A closure rather than an object with a deinit: ARC may release an object after its last use, which
/// could delete the directory while a journal inside it is still open.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = FileManager.default.temporaryDirectory.path + "/SQLiteRunStoreTests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// The permission bits of a file or directory, or nil if it does not exist.
func permissions(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_mode) & 0o777
}

/// An item of step `step` at `row`, with a predictable origin and digest.
func item(_ step: Int, _ row: Int, stepId: String = "send") -> LedgerItem {
    LedgerItem(key: LedgerKey(step: step, row: row), stepId: stepId, origin: "rows.csv:\(row)", digest: "digest-\(row)")
}

/// 2026-11-22 04:12:00 UTC.
let novemberMorning = 1_795_320_720.0

/// Opens a journal in `directory` and starts one run in it.
func journalWithRun(in directory: String, identity: String = "abc123") async throws -> (Journal, RunRecord) {
    let journal = try Journal(path: directory + "/journal.sqlite")
    let run = try await journal.startRun(identity: identity, pipeline: "send.yaml", pid: 4242, now: novemberMorning)
    return (journal, run)
}

/// Runs `body` with a new journal in a temporary directory (`path` is its file) and a run started in it.
func withJournalAndRun<T>(_ body: (_ journal: Journal, _ run: RunRecord, _ path: String) async throws -> T) async throws
    -> T
{
    try await withTemporaryDirectory { directory in
        let path = directory + "/journal.sqlite"
        let journal = try Journal(path: path)
        return try await body(
            journal, try await journal.startRun(identity: "i", pipeline: "digest", pid: 1, now: 1000), path)
    }
}

/// `withTemporaryDirectory` for async bodies.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = FileManager.default.temporaryDirectory.path + "/SQLiteRunStoreTests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}
