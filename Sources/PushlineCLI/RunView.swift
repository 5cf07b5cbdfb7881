import ArgumentParser
import Foundation
import PipelineCore
import RunStore

/// `runs show --format json`.
struct RunView: Encodable {
    struct Group: Encodable {
        let step: Int
        let stepId: String
        let state: ItemState
        let reason: String?
        let count: Int
        let examples: [String]
    }

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
    let items: [String: [String: Int]]
    let groups: [Group]
    let unknown: [ItemView]

    init(run: RunRecord, status: String, counts: [StepCount], groups: [FailureGroup], unknown: [JournalItem], shards: [Part]? = nil) {
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
        self.groups = groups.map { Group(step: $0.step, stepId: $0.stepId, state: $0.state, reason: $0.error, count: $0.count, examples: $0.examples) }
        self.unknown = unknown.map(ItemView.init)
    }
}
