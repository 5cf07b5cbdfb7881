import PipelineCore
import RunStore

/// The SQLite journal as a run store; its lock is a file lock in `locks/` beside the journal file.
extension Journal: RunStore {
    /// The journal file's path.
    package var location: String { path }

    /// The directory of the pipelines' lock files.
    var lockDirectory: String { FilePath.directory(of: path) + "/locks" }

    package func lock(pipeline: String, holder: LockHolder) throws(RunStoreError) -> LockAttempt {
        try FileRunLock.acquire(pipeline: pipeline, directory: lockDirectory, holder: holder)
    }

    package func isLocked(pipeline: String) -> Bool {
        FileRunLock.isHeld(pipeline: pipeline, directory: lockDirectory)
    }

    /// The ledger of `run`. A file lock cannot be lost while its process lives, so there is nothing to fence.
    package func ledger(for run: RunRecord, lock: (any RunLock)?) -> any ItemLedger {
        ledger(for: run)
    }

    /// A file lock cannot be lost while its process lives: there is nothing to check.
    package func resumeRun(id: String, path: String?, pid: Int32, now: Double, lock: (any RunLock)?)
        async throws(RunStoreError) -> RunRecord
    {
        try await resumeRun(id: id, path: path, pid: pid, now: now)
    }

    /// A file lock cannot be lost while its process lives: there is nothing to check.
    package func finishRun(
        id: String, state: RunStatus, exitCode: Int32, summary: String?, now: Double, lock: (any RunLock)?
    ) async throws(RunStoreError) {
        try await finishRun(id: id, state: state, exitCode: exitCode, summary: summary, now: now)
    }

    /// Nothing to do: the connection closes when the journal is released.
    package func close() async {}

    // Settling, finding and pruning are types of their own; the store hands them its connection.

    package func resolve(
        run id: String, as resolution: Resolution, step: Int?, rows: [ClosedRange<Int>], by who: String, note: String?,
        now: Double
    ) async throws(RunStoreError) -> Resolved {
        try await JournalSettlement(journal: self).resolve(
            run: id, as: resolution, step: step, rows: rows, by: who, note: note, now: now)
    }

    package func find(_ text: String, pipeline: String?, since: Double?, limit: Int) async throws(RunStoreError)
        -> [FoundItem]
    {
        try await JournalSettlement(journal: self).find(text, pipeline: pipeline, since: since, limit: limit)
    }

    package func removeRuns(_ ids: [String], dryRun: Bool) async throws(RunStoreError) -> RemovedRuns {
        try await JournalPruning(journal: self).removeRuns(ids, dryRun: dryRun)
    }

    package func reclaimSpace() async throws(RunStoreError) -> ReclaimedSpace {
        try await JournalPruning(journal: self).reclaimSpace()
    }
}
