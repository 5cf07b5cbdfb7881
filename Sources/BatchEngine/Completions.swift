import Dispatch
import Synchronization

/// Where a batch's requests put what they came to, for the runner to take all that have finished at once.
///
/// Taking every finished item in one wake-up is what lets the runner journal the next items' `sending`
/// marks as one group (one transaction for as many items as finished meanwhile: one when the hub answers
/// slowly, more as the journal or the machine becomes the bottleneck), and it saves a wake-up per request.
final class Completions<Element: Sendable>: Sendable {
    private struct State {
        var ready: [Element] = []
        var waiter: CheckedContinuation<[Element], Never>?
        /// The deadline of the wait in progress, if it has one: a timer ends only a wait for its own deadline.
        var waiterDeadline: ContinuousClock.Instant?
        /// The deadline of the latest timer set: the waits that share it share the timer.
        var timer: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    /// Told each time a timer fires, after it ended its wait (if it did): tests wait for it instead of for time.
    private let timerFired: (@Sendable () -> Void)?

    /// Completions; `timerFired` hears each timer as it fires.
    init(timerFired: (@Sendable () -> Void)? = nil) {
        self.timerFired = timerFired
    }

    /// Adds a finished item, waking the runner if it waits.
    func push(_ element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<[Element], Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.ready.append(element)
            return nil
        }
        waiter?.resume(returning: [element])
    }

    /// True while a take waits for an item.
    var isWaiting: Bool { state.withLock { $0.waiter != nil } }

    /// Every finished item not taken yet, without waiting (none when none has finished).
    func takeReady() -> [Element] {
        state.withLock { state -> [Element] in
            let taken = state.ready
            state.ready = []
            return taken
        }
    }

    /// Every finished item not taken yet; waits for one when there is none. One caller at a time.
    func takeAll() async -> [Element] {
        await take(until: nil)
    }

    /// Every finished item not taken yet; waits for one when there is none, until `deadline` at the latest (then
    /// returns none). One caller at a time.
    ///
    /// Waits that end at the same deadline (a group's, taken answer by answer) share one timer: a timer is a wake-up
    /// of a thread of its own when it fires, and one for each answer cost more than the answers' commits saved.
    func takeAll(until deadline: ContinuousClock.Instant) async -> [Element] {
        await take(until: deadline)
    }

    private func take(until deadline: ContinuousClock.Instant?) async -> [Element] {
        let ready = takeReady()
        if !ready.isEmpty { return ready }
        return await withCheckedContinuation { continuation in
            let (taken, arm) = state.withLock { state -> ([Element]?, Bool) in
                guard state.ready.isEmpty else {
                    let taken = state.ready
                    state.ready = []
                    return (taken, false)
                }
                state.waiter = continuation
                state.waiterDeadline = deadline
                guard let deadline, state.timer != deadline else { return (nil, false) }
                state.timer = deadline
                return (nil, true)
            }
            if let taken {
                continuation.resume(returning: taken)
                return
            }
            guard arm, let deadline else { return }
            let (seconds, attoseconds) = (deadline - .now).components
            let nanoseconds = max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                let expired = state.withLock { state -> CheckedContinuation<[Element], Never>? in
                    if state.timer == deadline { state.timer = nil }
                    guard state.waiterDeadline == deadline, let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    return waiter
                }
                expired?.resume(returning: [])
                timerFired?()
            }
        }
    }
}
