import PipelineCore
import RunStore

/// Whether a new run's sources gave the rows a completed run of the same pipeline sent: the digest of each source's
/// rows, by step, against what the completed run recorded of the same steps. Equal, nothing needs to run (the same
/// command again on the same data); any difference, and the new run goes on, its idempotency keys holding back what was
/// sent.
struct SourceComparison: Sendable {
    /// The store both runs are in.
    let store: any RunStore
    /// The completed run the new one follows.
    let completed: RunRecord

    /// Why nothing needs to run, or nil to go on (a source that failed, or rows that differ, or a store that cannot say).
    func unchanged(_ digests: [Int: String]) async -> String? {
        guard !digests.isEmpty, let steps = try? await store.completedSteps(run: completed.id) else { return nil }
        var before: [Int: (digest: String, count: Int, step: String)] = [:]
        for step in steps {
            for case .rows(let rows) in step.outputs.values {
                before[step.step] = (rows.digest, rows.count, step.stepId)
            }
        }
        // A step's `for-each` file: what the completed run kept of it (its copy's digest).
        let spool = store.ledger(for: completed, lock: nil).rowSpool
        for step in digests.keys where before[step] == nil {
            guard
                let kept = try? await spool?.completedSpool(
                    step: step, source: FileSpooler.source(split: completed.shard))
            else { continue }
            let name = steps.first { $0.step == step }?.stepId ?? "step \(step)"
            before[step] = (kept.digest, -1, name)
        }
        guard before.mapValues(\.digest) == digests else { return nil }
        let counts = before.sorted { $0.key < $1.key }
            .map { source in
                source.value.count < 0
                    ? "'\(source.value.step)': its for-each file unchanged"
                    : "'\(source.value.step)': \(ItemCounts.grouped(source.value.count)) row\(source.value.count == 1 ? "" : "s")"
            }
        return "the sources gave the rows run \(completed.id) sent (\(counts.joined(separator: ", ")))"
    }
}
