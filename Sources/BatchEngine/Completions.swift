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
        /// Counts waits, so a timer set for one wait never ends a later one.
        var wait = 0
    }

    private let state = Mutex(State())

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
        await take(within: nil)
    }

    /// Every finished item not taken yet; waits for one when there is none, at most `limit` (then returns none).
    /// One caller at a time.
    func takeAll(within limit: Duration) async -> [Element] {
        await take(within: limit)
    }

    private func take(within limit: Duration?) async -> [Element] {
        let ready = state.withLock { state -> [Element] in
            let taken = state.ready
            state.ready = []
            return taken
        }
        if !ready.isEmpty { return ready }
        return await withCheckedContinuation { continuation in
            let wait = state.withLock { state -> Int? in
                guard state.ready.isEmpty else { return nil }
                state.waiter = continuation
                state.wait += 1
                return state.wait
            }
            guard let wait else {
                let taken = state.withLock { state -> [Element] in
                    let taken = state.ready
                    state.ready = []
                    return taken
                }
                continuation.resume(returning: taken)
                return
            }
            guard let limit else { return }
            let (seconds, attoseconds) = limit.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                let expired = state.withLock { state -> CheckedContinuation<[Element], Never>? in
                    guard state.wait == wait, let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    return waiter
                }
                expired?.resume(returning: [])
            }
        }
    }
}
