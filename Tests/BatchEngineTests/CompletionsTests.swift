import Testing

@testable import BatchEngine

/// Where a batch's requests leave what they came to: the runner takes all that finished at once, waits for one when
/// none has, and a group's waits end at the group's deadline.
@Suite struct CompletionsTests {
    @Test func whatFinishedIsTakenAllAtOnceAndAWaitEndsWithTheNextOne() async throws {
        let completions = Completions<Int>()
        completions.push(1)
        completions.push(2)
        #expect(await completions.takeAll() == [1, 2])
        async let next = completions.takeAll()
        await waitUntil { completions.isWaiting }
        completions.push(3)
        #expect(await next == [3])
        #expect(completions.takeReady().isEmpty)
    }

    @Test func aWaitUntilADeadlineThatPassesReturnsNothing() async {
        let completions = Completions<Int>()
        #expect(await completions.takeAll(until: .now + .milliseconds(5)).isEmpty)
        completions.push(1)
        #expect(await completions.takeAll(until: .now + .seconds(60)) == [1])
    }

    /// The waits of one group share its deadline's timer; the timer ends the group's last wait, and never a wait that
    /// came after the group (one without a deadline, here), even when it fires during it. The deadlines are far enough
    /// that each push comes before them on a loaded machine; a push that came after would fail an expectation, not
    /// hang.
    @Test func aGroupsTimerEndsOnlyTheGroupsOwnWait() async throws {
        let (fired, firing) = AsyncStream<Void>.makeStream()
        var timers = fired.makeAsyncIterator()
        let completions = Completions<Int>(timerFired: { firing.yield() })
        let deadline = ContinuousClock.now + .milliseconds(300)
        async let first = completions.takeAll(until: deadline)
        await waitUntil { completions.isWaiting }
        completions.push(1)
        #expect(await first == [1])
        // The same deadline again: the timer set for the first wait ends this one.
        #expect(await completions.takeAll(until: deadline).isEmpty)
        #expect(await timers.next() != nil)

        let later = ContinuousClock.now + .milliseconds(300)
        async let second = completions.takeAll(until: later)
        await waitUntil { completions.isWaiting }
        completions.push(2)
        #expect(await second == [2])
        async let unbounded = completions.takeAll()
        await waitUntil { completions.isWaiting }
        // The timer `later` set fires during the wait without a deadline, and leaves it waiting.
        #expect(await timers.next() != nil)
        #expect(completions.isWaiting)
        completions.push(3)
        #expect(await unbounded == [3])
    }

    /// Yields until `condition` holds (another task makes it hold); records an issue after 30 s and returns, so the
    /// test goes on to push what ends its waits rather than hang.
    private func waitUntil(_ condition: () -> Bool) async {
        let limit = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < limit else {
                Issue.record("the condition did not hold within 30 s")
                return
            }
            await Task.yield()
        }
    }
}
