import Synchronization

/// Asks a running pipeline to stop starting new items (SIGINT/SIGTERM). Items in flight finish and
/// are journalled; the run ends resumable. What cannot finish in moments (a plugin at work) waits for it and stops.
package final class StopSignal: Sendable {
    private let requested = Atomic<Bool>(false)
    private let waiters = Mutex<(next: Int, waiting: [Int: CheckedContinuation<Void, Never>])>((0, [:]))

    /// Creates a signal that has not fired.
    package init() {}

    /// Fires the signal, waking every `wait`; later calls do nothing more.
    package func request() {
        requested.store(true, ordering: .relaxed)
        // The flag is set before the waiters are taken: a `wait` that registers after this sees it set.
        let woken = waiters.withLock { state in
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// True once fired.
    package var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// Returns once the signal has fired (at once when it has), or when the waiting task is cancelled.
    package func wait() async {
        let id = waiters.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = waiters.withLock { state -> Bool in
                    if requested.load(ordering: .relaxed) || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            waiters.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }
}
