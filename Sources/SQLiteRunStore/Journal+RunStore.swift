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
}
