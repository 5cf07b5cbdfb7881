import RunStore
import Testing

/// The watch that tells a pause of this process from a store that did not answer.
@Suite struct ProcessPausesTests {
    @Test func aWakeFarLaterThanItsTickIsAPauseOfItsLengthAndAWakeOnTimeIsNot() {
        let pauses = ProcessPauses(tick: .milliseconds(250), threshold: .seconds(2))
        let start = ContinuousClock.now
        pauses.observe(previous: start, now: start + .milliseconds(260))
        pauses.observe(previous: start, now: start + .milliseconds(2_100))
        #expect(pauses.longest(since: start) == nil, "late by less than the threshold: a busy machine, not a pause")
        pauses.observe(previous: start + .seconds(1), now: start + .seconds(42) + .milliseconds(250))
        #expect(pauses.longest(since: start) == .seconds(41))
        // Only pauses that ended after the moment asked about count.
        #expect(pauses.longest(since: start + .seconds(43)) == nil)
        pauses.observe(previous: start + .seconds(50), now: start + .seconds(55) + .milliseconds(250))
        #expect(pauses.longest(since: start + .seconds(43)) == .seconds(5))
        #expect(pauses.longest(since: start) == .seconds(41))
        // The most recent one, for a lock lost in the last pause rather than in the longest.
        #expect(pauses.latest(since: start) == .seconds(5))
    }

    @Test func aPauseJustEndedCountsBeforeTheWatchRecordsIt() {
        let pauses = ProcessPauses(tick: .milliseconds(250), threshold: .seconds(2))
        let start = ContinuousClock.now
        pauses.woke(at: start + .seconds(1))
        // The call's timer fired first after SIGCONT: the watch last woke 30 s ago and has not run since.
        #expect(pauses.longest(since: start, now: start + .seconds(31) + .milliseconds(250)) == .seconds(30))
        #expect(pauses.longest(since: start, now: start + .seconds(1) + .milliseconds(300)) == nil)
    }

    @Test func theWatchRunsOnItsOwnThreadAndSeesNoPauseWhenNoneHappens() async throws {
        let pauses = ProcessPauses(tick: .milliseconds(10), threshold: .seconds(30))
        let start = ContinuousClock.now
        pauses.start()
        pauses.start()
        try await Task.sleep(for: .milliseconds(100))
        #expect(pauses.longest(since: start) == nil)
        pauses.stop()
    }

    @Test("a watch is its owner's: stopped, it reports no pause, not even one still open, and does not start again")
    func aStoppedWatchReportsNothingAndStaysStopped() {
        let pauses = ProcessPauses(tick: .milliseconds(250), threshold: .seconds(2))
        let start = ContinuousClock.now
        pauses.start()
        #expect(pauses.isWatching)
        pauses.woke(at: start)
        #expect(pauses.longest(since: start, now: start + .seconds(31)) != nil, "an open gap while it watches")
        pauses.stop()
        #expect(!pauses.isWatching)
        #expect(pauses.longest(since: start, now: start + .seconds(31)) == nil)
        #expect(pauses.latest(since: start, now: start + .seconds(31)) == nil)
        pauses.start()
        #expect(!pauses.isWatching, "a stopped watch is not started again")
    }

    @Test func theExplanationSaysWhatStoodStillAndForHowLong() {
        #expect(
            ProcessPauses.explanation(.seconds(41))
                == "this process did not run for 41 s (it was stopped with SIGSTOP, its machine was frozen, or it had no CPU)"
        )
    }
}
