import Foundation
import PipelineCore
import RunStore

/// How a run names its pipeline in the run store and its locks: by the pipeline's name (`PipelineName`), never by
/// the directory its file is read from, so a pipeline in a new release directory, another mount or another checkout
/// is the same pipeline, shares its locks and resumes its runs.
package enum RunNames {
    /// The pipeline file's absolute, standardized path: the loader's stamp, else the path made absolute. Recorded for
    /// people (`runs show`) and to tell a moved pipeline from an unrelated one of the same name (`PipelineHome`).
    package static func absolute(_ document: PipelineDocument) -> String {
        document.absolutePath ?? absolute(document.file)
    }

    /// `file` made absolute and standardized.
    package static func absolute(_ file: String) -> String {
        URL(fileURLWithPath: file).standardizedFileURL.path
    }

    /// The name of the lock of the pipeline named `pipeline`, or of one shard of it: the shards of a run each take
    /// their own.
    package static func lockName(_ pipeline: String, shard: Shard?) -> String {
        "pipeline:" + pipeline + (shard.map { "#shard-\($0.index)-of-\($0.count)" } ?? "")
    }

    /// The name of the lock of a run with this identity (or of one shard of it).
    static func runLockName(_ identity: String, shard: Shard?) -> String {
        "run:" + identity + (shard.map { "#shard-\($0.index)-of-\($0.count)" } ?? "")
    }

    /// The locks a start of the pipeline named `pipeline` takes, pipeline lock first: the pipeline's, so two versions
    /// of one pipeline never send at once, and the run identity's, whose epoch fences the run's journal writes.
    static func lockNames(_ pipeline: String, identity: String, shard: Shard?) -> [String] {
        [lockName(pipeline, shard: shard), runLockName(identity, shard: shard)]
    }

    /// A run of the pipeline named `pipeline` (another version of it too) or of this run `identity` that is split
    /// another way than `shard`, or whole, or split when `shard` is nil, and still sending: a start split as `shard`
    /// would send the same rows beside it. Runs the store shows running whose lock is free were killed and are no
    /// obstacle.
    static func liveOtherSplit(
        _ pipeline: String, identity: String, shard: Shard?,
        in store: any RunStore
    ) async throws(RunStoreError) -> RunRecord? {
        let sameName = try await store.runningRuns(pipeline: pipeline, limit: 64)
        let sameRun = try await store.runs(identity: identity, limit: 4 * Shard.maximumCount).filter {
            $0.status == .running
        }
        for other in sameName + sameRun where other.shard?.count != shard?.count {
            if try await isLive(other, in: store) { return other }
        }
        return nil
    }

    /// Whether the process of a run the store shows `running` still holds its lock; if not, it was killed and the
    /// run is abandoned. Throws when the store cannot tell.
    package static func isLive(_ run: RunRecord, in store: any RunStore) async throws(RunStoreError) -> Bool {
        try await store.isLocked(pipeline: runLockName(run.identity, shard: run.shard))
    }

    /// `BatchControl.runIsLive` over `store`: whether the run with an id still holds its lock. A run the store cannot
    /// find, or whose lock it cannot check, counts as gone (its items are then reported, not waited for).
    static func liveness(_ store: any RunStore) -> @Sendable (String) async -> Bool {
        { id in
            do throws(RunStoreError) {
                guard let run = try await store.run(matching: id), run.id == id, run.status == .running else {
                    return false
                }
                return try await isLive(run, in: store)
            } catch {
                return false
            }
        }
    }

    /// The lock every start of the pipeline named `pipeline` passes through while it checks for other splits and
    /// takes its own lock.
    static func gateName(_ pipeline: String) -> String {
        "pipeline:" + pipeline + "#start"
    }

    /// Whether the store already knows the pipeline named `document.name` as another file: one without `name:`, read
    /// from another directory, with other text, whose run identity the store has never seen. Such a file only shares
    /// its file name with the pipeline the store knows (two teams' `digest.yaml`), and taking it for that pipeline
    /// would lock out or deduplicate the other's sends; nil when it is the same pipeline (the same file, the same text
    /// moved, a run of it recorded before, or a declared `name:`, which is taken at its word).
    static func stranger(_ document: PipelineDocument, identity: String, in store: any RunStore)
        async throws(RunStoreError) -> PipelineHome?
    {
        guard document.declaredName == nil, let home = try await store.pipelineHome(name: document.name) else {
            return nil
        }
        let path = absolute(document)
        if home.path == path { return nil }
        if let known = home.contentDigest, known == document.contentDigest { return nil }
        if try await !store.runs(identity: identity, limit: 1).isEmpty { return nil }
        return home
    }
}
