import PipelineCore
import RunStore
import Testing

@Suite("The next start: resume what was cut off within its window, else a new run")
struct NextStartTests {
    private let started = 1_795_320_000.0

    private func run(_ status: RunStatus, exitCode: Int32? = nil, window: Double? = 3600) -> RunRecord {
        RunRecord(
            id: "r", identity: "i", pipeline: "nightly", startedAt: started, status: status, pid: 1, exitCode: exitCode,
            dedupeWindow: window)
    }

    @Test(
        "a run cut off (killed, stopped, failed mid-way) is resumed within its window and expired after it",
        arguments: [(RunStatus.running, Int32?.none), (.interrupted, 143), (.failed, 1), (.failed, 75)])
    func cutOff(_ status: RunStatus, _ exitCode: Int32?) {
        let record = run(status, exitCode: exitCode)
        #expect(record.wasCutOff)
        #expect(record.nextStart(now: started + 3599) == .resume(record))
        #expect(record.nextStart(now: started + 3600) == .expire(record), "the window is counted from the run's start")
    }

    @Test(
        "a run that ran to its end never holds up the next start, whenever it comes",
        arguments: [(RunStatus.completed, Int32(0)), (.partial, 3), (.rejected, 2), (.expired, 1), (.failed, 2)])
    func ranToItsEnd(_ status: RunStatus, _ exitCode: Int32) {
        let record = run(status, exitCode: exitCode)
        #expect(!record.wasCutOff, "\(status) with exit \(exitCode)")
        #expect(record.nextStart(now: started + 1) == .newRun(after: record))
        #expect(record.nextStart(now: started + 86_400 * 30) == .newRun(after: record))
    }

    @Test("a run that recorded no dedupe window is resumed within the default window")
    func defaultWindow() {
        for window in [nil, 0.0] {
            let record = run(.interrupted, exitCode: 130, window: window)
            #expect(record.resumeWindow == Double(BatchOptions.defaultDedupeWindow))
            #expect(record.nextStart(now: started + Double(BatchOptions.defaultDedupeWindow) - 1) == .resume(record))
            #expect(record.nextStart(now: started + Double(BatchOptions.defaultDedupeWindow)) == .expire(record))
        }
    }

    @Test("a run that did not complete is superseded by the next run of its identity and shard; a completed one is not")
    func superseded() {
        var partial = run(.partial, exitCode: 3)
        partial.id = "a"
        var next = run(.completed, exitCode: 0)
        next.id = "b"
        next.startedAt = started + 86_400
        var other = next
        other.id = "c"
        other.identity = "another pipeline"
        #expect(partial.supersededBy(among: [other, next, partial])?.id == "b")
        #expect(next.supersededBy(among: [other, next, partial]) == nil)
        var split = next
        split.shard = Shard(index: 0, count: 2)
        #expect(partial.supersededBy(among: [split]) == nil, "another split is another series of runs")
    }
}
