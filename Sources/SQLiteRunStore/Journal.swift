import Foundation
import PipelineCore
import RunStore

/// The run journal: a SQLite file recording every batch run and every item it sent, so a run that is
/// killed (even with SIGKILL) can resume without sending an item twice.
///
/// One `Journal` holds one connection, used on a queue of its own (`JournalWorker`), so it can be shared across tasks
/// and threads and a wait on the file never holds its caller's thread.
/// Several processes may open the same file at once: the journal uses WAL, and a writer waits up to 5 s
/// for another process's transaction to finish.
///
/// Durability: every write is committed before its method returns, with `synchronous=NORMAL`. A
/// committed write survives the process being killed; a power loss or OS crash may lose the last
/// transactions before the WAL reached the disk.
package final class Journal: Sendable {
    /// The journal file's path.
    package let path: String
    private let worker: JournalWorker

    /// Opens (creating if needed, with parent directories mode 0700, file mode 0600) the journal at `path`.
    ///
    /// Sets WAL mode, `synchronous=NORMAL` (durable against a killed process; a power loss may lose the
    /// last transactions), a 5000 ms busy timeout and foreign keys, and creates or migrates the schema
    /// (`PRAGMA user_version` = 1). A file that is not a SQLite database, or one written with a newer
    /// schema version, throws a `RunStoreError` whose message names the path.
    /// `busyTimeoutMilliseconds` is how long a write waits for another process's write lock before it fails.
    package init(path: String, busyTimeoutMilliseconds: Int32 = 5000) throws(RunStoreError) {
        self.path = path
        try JournalFiles.prepare(path)
        let opened = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try JournalSchema.prepare(opened, lockDirectory: FilePath.directory(of: path) + "/locks")
        worker = JournalWorker(connection: opened, label: "pushline.journal")
    }

    /// The default path: `$PUSHLINE_JOURNAL` if set and non-empty, else
    /// `${XDG_STATE_HOME:-$HOME/.local/state}/pushline/journal.sqlite`.
    ///
    /// The environment is passed in rather than read from the process, so it is testable. As the XDG
    /// spec asks, a relative `XDG_STATE_HOME` is ignored. Without `HOME`, the user's home directory from
    /// the system is used.
    package static func defaultPath(environment: [String: String]) -> String {
        if let explicit = environment["PUSHLINE_JOURNAL"], !explicit.isEmpty { return explicit }
        let stateHome: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            stateHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            stateHome = joined(home, ".local/state")
        }
        return joined(stateHome, "pushline/journal.sqlite")
    }

    /// An `ItemLedger` that records items under one run id.
    ///
    /// The ledger shares this journal's connection. Its methods throw if the journal has no run with
    /// this id (items refer to their run).
    package func ledger(run: String) -> JournalLedger {
        JournalLedger(journal: self, run: run)
    }

    /// An `ItemLedger` that records items under `run`; idempotency keys count across every run of the journal.
    package func ledger(for run: RunRecord) -> any ItemLedger {
        JournalLedger(journal: self, run: run.id, record: run)
    }

    /// A read-only `ItemLedger`: what a dry run consults to show which items an earlier run already sent. Every
    /// write throws.
    package func readOnlyLedger() -> any ItemLedger {
        JournalLedger(journal: self, run: nil)
    }

    /// Runs `body` with the connection on the journal's queue, after the calls before it.
    @discardableResult
    func withConnection<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws(RunStoreError) -> T)
        async throws(RunStoreError) -> T
    {
        try await worker.run(body)
    }

    /// `base/relative` without doubling the slash when `base` ends with one.
    private static func joined(_ base: String, _ relative: String) -> String {
        var trimmed = Substring(base)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return trimmed == "/" ? "/" + relative : trimmed + "/" + relative
    }
}
