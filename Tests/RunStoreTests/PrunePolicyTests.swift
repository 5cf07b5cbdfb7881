import PipelineCore
import RunStore
import Testing

/// Which runs pruning removes, and why the others stay.
@Suite struct PrunePolicyTests {
    private let now = 100 * 86400.0

    private func run(
        _ id: String, identity: String? = nil, status: RunStatus = .completed, endedDaysAgo: Double,
        window: Double? = 43200, pipeline: String = "digest"
    ) -> RunRecord {
        let ended = now - endedDaysAgo * 86400
        var record = RunRecord(
            id: id, identity: identity ?? id, pipeline: pipeline, startedAt: ended - 600,
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
        // A partial run is never resumed, nor is one cut off longer ago than its window: the next start is a new run.
        #expect(plan.remove.map(\.id) == ["old", "superseded", "newer", "killed", "other"])
        #expect(plan.recent.map(\.id) == ["recent", "migrated"])
        #expect(plan.inWindow.map(\.id) == ["window"])
        #expect(plan.unfinished.isEmpty)
        #expect(plan.running.map(\.id) == ["sending"])

        // A run journalled before runs recorded their window keeps the default 12 hours.
        let zero = PrunePolicy(olderThan: 0).plan(runs, now: now) { $0.id == "sending" }
        #expect(zero.inWindow.map(\.id) == ["window", "migrated"])

        // Cut off within its window (a dedupe window of 0 resumes within the default 12 hours): the next start resumes it.
        let cut =
            runs + [
                run("cut", status: .interrupted, endedDaysAgo: 0.1, window: 0),
                run("ran", identity: "ran", status: .partial, endedDaysAgo: 0.1, window: 0),
            ]
        let resumable = PrunePolicy(olderThan: 0).plan(cut, now: now) { $0.id == "sending" }
        #expect(resumable.unfinished.map(\.id) == ["cut"], "the newest run of an input that the next start resumes")
        #expect(resumable.remove.contains { $0.id == "ran" })
        let unfinished = PrunePolicy(olderThan: 0, unfinished: true).plan(cut, now: now) { $0.id == "sending" }
        #expect(unfinished.remove.contains { $0.id == "cut" } && unfinished.unfinished.isEmpty)
        #expect(unfinished.running.map(\.id) == ["sending"], "a run still sending is never removed")

        let one = PrunePolicy(olderThan: 30 * 86400, pipeline: "news").plan(runs, now: now) { _ in false }
        #expect(one.remove.map(\.id) == ["other"])
        let spared = PrunePolicy(olderThan: 30 * 86400, sparing: "old").plan(runs, now: now) { _ in false }
        #expect(!spared.remove.contains { $0.id == "old" })
    }
}
