import ArgumentParser
import Foundation
import PipelineCore
import RunStore

/// `runs show --format json`.
struct RunView: Encodable {
    /// One part of a sharded run, as `runs show` lists them all.
    struct Part: Encodable {
        let shard: String
        let id: String
        let status: String
        let exitCode: Int32?
        let items: [String: Int]
    }

    let id: String
    let status: String
    /// `2/4` for a shard of a run.
    let shard: String?
    /// Every part of a sharded run (its newest run per shard), in shard order; nil for a run of every row.
    let shards: [Part]?
    let exitCode: Int32?
    let pipeline: String
    /// The pipeline file the run was last started from.
    let path: String?
    let startedAt: String
    let endedAt: String?
    let resumes: Int
    /// The newer run a later start began instead of resuming this one, when this one did not complete.
    var supersededBy: String?
    let items: [String: [String: Int]]
    let groups: [FailureGroup]
    let unknown: [ItemView]
    /// The steps that completed, with what they handed on.
    let completed: [CompletedStep]

    init(
        run: RunRecord, status: String, counts: [StepCount], groups: [FailureGroup], unknown: [JournalItem],
        shards: [Part]? = nil,
        completed: [CompletedStep] = []
    ) {
        id = run.id
        self.status = status
        shard = run.shard?.description
        self.shards = shards
        exitCode = run.exitCode
        pipeline = run.pipeline
        path = run.path
        startedAt = RunID.iso(run.startedAt)
        endedAt = run.endedAt.map(RunID.iso)
        resumes = run.resumes
        var items: [String: [String: Int]] = [:]
        for count in counts { items["\(count.step):\(count.stepId)", default: [:]][count.state.rawValue] = count.count }
        self.items = items
        self.groups = groups
        self.unknown = unknown.map(ItemView.init)
        self.completed = completed
    }

    /// A completed step's outputs in one line: counts and text as they are, lists by their items (the first few).
    static func outputsLine(_ outputs: StepOutputs) -> String {
        outputs.sorted { $0.key < $1.key }.map { name, value in
            switch value {
            case .integer(let number): return "\(name) \(number)"
            case .string(let text): return "\(name) \(text.count > 60 ? String(text.prefix(60)) + "…" : text)"
            case .boolean(let value): return "\(name) \(value)"
            case .list(let values, let total):
                let shown = values.prefix(3).joined(separator: ", ")
                return "\(name) [\(shown)\(total > 3 ? ", … \(total) in all" : "")]"
            case .rows(let rows):
                return
                    "\(name) \(ItemCounts.grouped(rows.count)) row\(rows.count == 1 ? "" : "s") (\(rows.columns.joined(separator: ", ")); sha256 \(rows.digest.prefix(12)))"
            }
        }.joined(separator: "; ")
    }
}
