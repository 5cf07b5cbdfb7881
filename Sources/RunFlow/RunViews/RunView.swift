import Foundation
import PipelineCore
import RunStore

/// A run as people and programs read it back, the same for `pushline runs show --format json` and for
/// `GET /v1/runs/{id}` of `pushline serve`: its state as it should be read (a `running` run whose lock is free is
/// `abandoned`), times, exit code, item counts per step and state, failures grouped by reason, the items whose fate is
/// unknown, the steps that completed with their outputs, the parts of a sharded run, and its report once it ended.
package struct RunView: Encodable, Sendable {
    /// One part of a sharded run, as `runs show` lists them all.
    package struct Part: Encodable, Sendable {
        package let shard: String
        package let id: String
        package let status: String
        package let exitCode: Int32?
        package let items: [String: Int]
    }

    package let id: String
    package let status: String
    /// `2/4` for a shard of a run.
    package let shard: String?
    /// Every part of a sharded run (its newest run per shard), in shard order; nil for a run of every row.
    package let shards: [Part]?
    package let exitCode: Int32?
    /// The pipeline's name (over HTTP, the name `serve` serves it by).
    package var pipeline: String
    /// The pipeline file the run was last started from.
    package let path: String?
    package let startedAt: String
    package let endedAt: String?
    package let resumes: Int
    /// The newer run a later start began instead of resuming this one, when this one did not complete.
    package var supersededBy: String?
    /// Items per step (`1:send`) and state.
    package let items: [String: [String: Int]]
    package let groups: [FailureGroup]
    package let unknown: [ItemView]
    /// The steps that completed, with what they handed on.
    package let completed: [CompletedStep]
    /// The run's report once it has ended (what `pushline run --format json` printed), as the store keeps it.
    package let report: JSONValue?

    package init(
        run: RunRecord, status: String, counts: [StepCount], groups: [FailureGroup], unknown: [JournalItem],
        shards: [Part]? = nil, completed: [CompletedStep] = [], supersededBy: String? = nil
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
        self.supersededBy = supersededBy
        var items: [String: [String: Int]] = [:]
        for count in counts { items["\(count.step):\(count.stepId)", default: [:]][count.state.rawValue] = count.count }
        self.items = items
        self.groups = groups
        self.unknown = unknown.map(ItemView.init)
        self.completed = completed
        report = run.summary.flatMap(JSONValue.init(parsing:))
    }

    /// The view of `run` as `store` holds it now, with up to `unknownLimit` of its unknown items.
    package static func read(_ run: RunRecord, from store: any RunStore, unknownLimit: Int) async throws(RunStoreError)
        -> RunView
    {
        let status = try await shownStatus(run, store: store)
        let superseded = run.supersededBy(
            among: try await store.runs(identity: run.identity, limit: 4 * Shard.maximumCount))
        return RunView(
            run: run, status: status, counts: try await store.counts(run: run.id),
            groups: try await store.failureGroups(run: run.id, examples: 3),
            unknown: try await store.items(run: run.id, states: [.unknown, .sending], limit: max(1, unknownLimit)),
            shards: run.shard == nil ? nil : try await parts(of: run, store: store),
            completed: try await store.completedSteps(run: run.id), supersededBy: superseded?.id)
    }

    /// The status as people should read it: a run the journal shows `running` whose pipeline lock is
    /// free was killed, so it is `abandoned` (and resumes when the same command runs again).
    package static func shownStatus(_ run: RunRecord, store: any RunStore) async throws(RunStoreError) -> String {
        guard run.status == .running else { return run.status.rawValue }
        return try await RunNames.isLive(run, in: store) ? "running" : "abandoned"
    }

    /// The parts of a sharded run: the newest run of each shard with its identity, number of parts and generation, in
    /// shard order, with each one's item counts over all steps.
    package static func parts(of run: RunRecord, store: any RunStore) async throws(RunStoreError) -> [Part] {
        guard let shard = run.shard else { return [] }
        var newest: [Int: RunRecord] = [:]
        for sibling in try await store.runs(identity: run.identity, limit: 4 * Shard.maximumCount) {
            // One generation's parts: those of an earlier or later `--again` start are other runs.
            guard let part = sibling.shard, part.count == shard.count, sibling.generation == run.generation,
                newest[part.index] == nil
            else { continue }
            newest[part.index] = sibling
        }
        var parts: [Part] = []
        for index in newest.keys.sorted() {
            let record = newest[index]!
            var items: [String: Int] = [:]
            for count in try await store.counts(run: record.id) {
                items[count.state.rawValue, default: 0] += count.count
            }
            parts.append(
                Part(
                    shard: record.shard?.description ?? "", id: record.id,
                    status: try await shownStatus(record, store: store), exitCode: record.exitCode, items: items))
        }
        return parts
    }

    /// A completed step's outputs in one line: counts and text as they are, lists by their items (the first few).
    package static func outputsLine(_ outputs: StepOutputs) -> String {
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
