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
        let ready = state.withLock { state -> [Element] in
            let taken = state.ready
            state.ready = []
            return taken
        }
        if !ready.isEmpty { return ready }
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [Element]? in
                guard state.ready.isEmpty else {
                    let taken = state.ready
                    state.ready = []
                    return taken
                }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
