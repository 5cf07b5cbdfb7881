import Foundation
import PipelineCore
import RunStore

/// How a run names its pipeline in the journal and its lock: the absolute, standardized path.
public enum RunPaths {
    /// The pipeline's path as runs and locks name it: the loader's stamp, else the path made absolute.
    public static func absolute(_ document: PipelineDocument) -> String {
        document.absolutePath ?? absolute(document.file)
    }

    public static func absolute(_ file: String) -> String {
        URL(fileURLWithPath: file).standardizedFileURL.path
    }

    /// The name of the run lock of `pipeline` (an absolute path), or of one shard of it: the shards of a run each
    /// take their own.
    public static func lockName(_ pipeline: String, shard: Shard?) -> String {
        shard.map { "\(pipeline)#shard-\($0.index)-of-\($0.count)" } ?? pipeline
    }

    /// The name of the lock of a run with this identity (or of one shard of it), whatever path its pipeline is read
    /// from.
    static func runLockName(_ identity: String, shard: Shard?) -> String {
        "run:" + identity + (shard.map { "#shard-\($0.index)-of-\($0.count)" } ?? "")
    }

    /// The locks a start of `pipeline` (an absolute path) takes, path lock first: the path's, so two versions of one
    /// file never send at once, and the run identity's, so the same run read from another path does not either.
    static func lockNames(_ pipeline: String, identity: String, shard: Shard?) -> [String] {
        [lockName(pipeline, shard: shard), runLockName(identity, shard: shard)]
    }

    /// A run of `pipeline` (another version of the file too) or of this run `identity` (read from another path)
    /// that is split another way than `shard`, or whole, or split when `shard` is nil, and still sending: a start
    /// split as `shard` would send the same rows beside it. Runs the store shows running whose lock is free were
    /// killed and are no obstacle.
    static func liveOtherSplit(_ pipeline: String, identity: String, shard: Shard?,
                               in store: any RunStore) async throws(RunStoreError) -> RunRecord? {
        let sameFile = try await store.runningRuns(pipeline: pipeline, limit: 64)
        let sameRun = try await store.runs(identity: identity, limit: 4 * Shard.maximumCount).filter { $0.status == .running }
        for other in sameFile + sameRun where other.shard?.count != shard?.count {
            if try await isLive(other, in: store) { return other }
        }
        return nil
    }

    /// Whether the process of a run the store shows `running` still holds its lock; if not, it was killed and the
    /// run is abandoned. Throws when the store cannot tell.
    public static func isLive(_ run: RunRecord, in store: any RunStore) async throws(RunStoreError) -> Bool {
        try await store.isLocked(pipeline: runLockName(run.identity, shard: run.shard))
    }

    /// The lock every start of `pipeline` passes through while it checks for other splits and takes its own lock.
    static func gateName(_ pipeline: String) -> String {
        "\(pipeline)#start"
    }
}
