import Foundation
import PipelineCore
import RunStore

// Settling, finding and pruning are types of their own; the store hands them itself.
extension PostgresStore {
    package func resolve(
        run id: String, as resolution: Resolution, step: Int?, rows: [ClosedRange<Int>], by who: String, note: String?,
        now: Double
    ) async throws(RunStoreError) -> Resolved {
        try await PostgresSettlement(store: self).resolve(
            run: id, as: resolution, step: step, rows: rows, by: who, note: note, now: now)
    }

    package func find(_ text: String, pipeline: String?, since: Double?, limit: Int) async throws(RunStoreError)
        -> [FoundItem]
    {
        try await PostgresSettlement(store: self).find(text, pipeline: pipeline, since: since, limit: limit)
    }

    package func removeRuns(_ ids: [String], dryRun: Bool) async throws(RunStoreError) -> RemovedRuns {
        try await PostgresPruning(store: self).removeRuns(ids, dryRun: dryRun)
    }

    package func reclaimSpace() async throws(RunStoreError) -> ReclaimedSpace {
        try await PostgresPruning(store: self).reclaimSpace()
    }
}
