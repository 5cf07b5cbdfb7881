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
