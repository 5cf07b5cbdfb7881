import PipelineCore
import RunStore
import Testing

/// Which runs pruning removes, and why the others stay.
@Suite struct PrunePolicyTests {
    private let now = 100 * 86400.0

    private func run(_ id: String, identity: String? = nil, status: RunStatus = .completed, endedDaysAgo: Double,
                     window: Double? = 43200, pipeline: String = "digest") -> RunRecord {
        let ended = now - endedDaysAgo * 86400
        var record = RunRecord(id: id, identity: identity ?? id, pipeline: pipeline, startedAt: ended - 600,
                               status: status, pid: 1)
        record.endedAt = status == .running ? nil : ended
        record.dedupeWindow = window
        return record
    }

    @Test func oldFinishedRunsGoAndTheRestStayForTheirReason() {
        let runs = [
            run("old", endedDaysAgo: 40),
            run("recent", endedDaysAgo: 5),
            run("window", endedDaysAgo: 35, window: 40 * 86400),
            run("migrated", endedDaysAgo: 0.25, window: nil),
            run("superseded", identity: "input", status: .partial, endedDaysAgo: 50),
            run("newer", identity: "input", status: .partial, endedDaysAgo: 45),
            run("killed", status: .running, endedDaysAgo: 60),
            run("sending", status: .running, endedDaysAgo: 60),
            run("other", endedDaysAgo: 40, pipeline: "news"),
        ]
        let policy = PrunePolicy(olderThan: 30 * 86400)
        let plan = policy.plan(runs, now: now) { $0.id == "sending" }
        #expect(plan.remove.map(\.id) == ["old", "superseded", "other"])
        #expect(plan.recent.map(\.id) == ["recent", "migrated"])
        #expect(plan.inWindow.map(\.id) == ["window"])
        #expect(plan.unfinished.map(\.id) == ["newer", "killed"], "the newest run of an input that did not complete can resume")
        #expect(plan.running.map(\.id) == ["sending"])

        // A run journalled before runs recorded their window keeps the default 12 hours.
        let zero = PrunePolicy(olderThan: 0).plan(runs, now: now) { $0.id == "sending" }
        #expect(zero.inWindow.map(\.id) == ["window", "migrated"])

        let unfinished = PrunePolicy(olderThan: 30 * 86400, unfinished: true).plan(runs, now: now) { $0.id == "sending" }
        #expect(unfinished.remove.map(\.id) == ["old", "superseded", "newer", "killed", "other"])
        #expect(unfinished.running.map(\.id) == ["sending"], "a run still sending is never removed")

        let one = PrunePolicy(olderThan: 30 * 86400, pipeline: "news").plan(runs, now: now) { _ in false }
        #expect(one.remove.map(\.id) == ["other"])
        let spared = PrunePolicy(olderThan: 30 * 86400, sparing: "old").plan(runs, now: now) { _ in false }
        #expect(!spared.remove.contains { $0.id == "old" })
    }
}
