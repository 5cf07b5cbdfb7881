import PipelineCore
import RunStore

/// The SQLite journal as a run store; its lock is a file lock in `locks/` beside the journal file.
extension Journal: RunStore {
    /// The journal file's path.
    public var location: String { path }

    /// The directory of the pipelines' lock files.
    var lockDirectory: String { FilePath.directory(of: path) + "/locks" }

    public func lock(pipeline: String, holder: LockHolder) throws(RunStoreError) -> LockAttempt {
        try FileRunLock.acquire(pipeline: pipeline, directory: lockDirectory, holder: holder)
    }

    public func isLocked(pipeline: String) -> Bool {
        FileRunLock.isHeld(pipeline: pipeline, directory: lockDirectory)
    }
}
