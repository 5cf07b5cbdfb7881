import PipelineCore
import RunStore

/// Pruning the run store: `pushline runs prune`, and a pipeline's `retention:` at the end of each live run. Which runs
/// go is `PrunePolicy`'s rule; this asks the store which running runs are live, removes the rest, and gives the space
/// back.
package enum RunPruning {
    /// What a prune did (or would do, for a dry run).
    package struct Outcome: Sendable {
        package var plan: PrunePlan
        package var removed: RemovedRuns
        /// The store's size before and after; nil for a dry run or when nothing was removed.
        package var space: ReclaimedSpace?
        /// Why the space could not be given back, when it could not (the runs are removed all the same).
        package var spaceProblem: String?
    }

    /// Prunes `store` by `policy` at `now`; with `dryRun`, only counts.
    package static func prune(_ store: any RunStore, policy: PrunePolicy, dryRun: Bool, now: Double)
        async throws(RunStoreError) -> Outcome
    {
        let runs = try await store.runs(limit: Int(Int32.max))
        var live: Set<String> = []
        for run in runs where run.status == .running {
            if try await RunNames.isLive(run, in: store) { live.insert(run.id) }
        }
        let plan = policy.plan(runs, now: now) { live.contains($0.id) }
        let removed = try await store.removeRuns(plan.remove.map(\.id), dryRun: dryRun)
        var outcome = Outcome(plan: plan, removed: removed)
        guard !dryRun, removed.runs > 0 else { return outcome }
        do {
            outcome.space = try await store.reclaimSpace()
        } catch {
            outcome.spaceProblem = error.message
        }
        return outcome
    }
}
