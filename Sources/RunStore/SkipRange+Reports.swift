import Foundation
import PipelineCore

/// What a run's skip ranges add to what its items say: every store reads its ranges and its items, then merges them
/// here, so `runs show`, reports and `runs find` count and list skipped rows alike whatever the store.
extension SkipRange {
    /// `counts` (by step, states in lifecycle order) with each step's skipped rows added to its `duplicate` count.
    package static func adding(_ skips: [SkipRange], to counts: [StepCount]) -> [StepCount] {
        guard !skips.isEmpty else { return counts }
        var merged = counts
        for skip in skips {
            if let index = merged.firstIndex(where: { $0.step == skip.step && $0.state == .duplicate }) {
                merged[index].count += skip.rows.count
            } else {
                merged.append(
                    StepCount(step: skip.step, stepId: skip.stepId, state: .duplicate, count: skip.rows.count))
            }
        }
        let order = Dictionary(uniqueKeysWithValues: ItemState.allCases.enumerated().map { ($1, $0) })
        return merged.sorted { ($0.step, order[$0.state] ?? 0) < ($1.step, order[$1.state] ?? 0) }
    }

    /// `groups` (biggest first) with the skipped rows added: one `already sent by run X` group per step and run, with
    /// the origins of its first rows as examples (after the items' own, up to `examples`).
    package static func adding(_ skips: [SkipRange], to groups: [FailureGroup], examples: Int) -> [FailureGroup] {
        guard !skips.isEmpty else { return groups }
        var merged = groups
        for skip in skips.sorted(by: { ($0.step, $0.rows.lowerBound) < ($1.step, $1.rows.lowerBound) }) {
            let index =
                merged.firstIndex { $0.step == skip.step && $0.state == .duplicate && $0.error == skip.reason }
                ?? {
                    merged.append(
                        FailureGroup(
                            step: skip.step, stepId: skip.stepId, state: .duplicate, error: skip.reason, count: 0,
                            examples: []))
                    return merged.count - 1
                }()
            merged[index].count += skip.rows.count
            for row in skip.rows where merged[index].examples.count < examples {
                merged[index].examples.append(skip.origin(of: row))
            }
        }
        return merged.sorted { $0.count > $1.count }
    }

    /// Row `row` of this range, of run `runId` (of pipeline `pipeline`, started at `startedAt`), as `runs find` lists
    /// it: the notification `prior`, the earlier run `priorRun`'s item, already sent.
    package func found(row: Int, runId: String, pipeline: String, startedAt: Double, prior: JournalItem) -> FoundItem {
        let when = Timestamp.iso8601(Date(timeIntervalSince1970: prior.updatedAt))
        let item = JournalItem(
            key: LedgerKey(step: step, row: row), stepId: stepId, origin: origin(of: row), digest: prior.digest,
            state: .duplicate, attempts: 0, notificationId: prior.notificationId,
            error: "already sent by run \(priorRun) (\(prior.origin) at \(when))", updatedAt: startedAt,
            idempotencyKey: prior.idempotencyKey, target: prior.target)
        return FoundItem(runId: runId, pipeline: pipeline, item: item)
    }
}
