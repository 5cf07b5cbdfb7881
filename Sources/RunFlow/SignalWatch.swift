import Dispatch
import Foundation
import PipelineCore
import Synchronization
import UnixSignals

/// SIGINT and SIGTERM during a live run, through swift-service-lifecycle's `UnixSignalsSequence`: the first asks the
/// run to stop starting items (requests in flight finish and are journalled); a second one, or a stop that takes
/// longer than `grace`, ends the process at once through `Console.endNow`, which the executable provides — the
/// journal then shows those items `sending`, reported unknown on resume.
final class SignalWatch: Sendable {
    /// What the watching task and `cancel` share.
    private final class State: Sendable {
        /// The first signal received.
        let received = Mutex<Int32?>(nil)
        /// Set when the run ended: a grace period's end then does nothing.
        let cancelled = Mutex(false)
    }

    private let state = State()
    private let watching: Task<Void, Never>
    /// The dispositions before this watch, put back by `cancel`: a command that serves after a run
    /// (`demo --keep-running`) has its own watcher, which must keep working.
    private let previous: [(Int32, sighandler_t?)]
    /// The grace period's timer runs on a queue, not a task: the cooperative pool may be busy with the run's work.
    private let timers = DispatchQueue(label: "pushline.signals")

    /// The signal that stopped the run, if any.
    var signal: Int32? { state.received.withLock { $0 } }

    /// Starts watching; `stop` fires on the first signal.
    init(stop: StopSignal, console: Console, grace: Double = 30) async {
        previous = [SIGINT, SIGTERM].map { ($0, Foundation.signal($0, SIG_IGN)) }
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        let (state, timers) = (state, timers)
        watching = Task {
            for await caught in signals {
                let number = caught.rawValue
                let first = state.received.withLock { received in
                    defer { if received == nil { received = number } }
                    return received == nil
                }
                guard first else { console.endNow(128 + number) }
                console.errorLine(
                    "pushline: \(number == SIGINT ? "SIGINT" : "SIGTERM") received: no new items; letting requests in flight finish "
                        + "(up to \(Int(grace)) s; signal again to stop at once)")
                stop.request()
                // Cancelled when the run ended in time: a front end that goes on afterwards (`demo`, `serve`)
                // must not be ended by a stop that already finished.
                timers.asyncAfter(deadline: .now() + grace) {
                    guard !state.cancelled.withLock({ $0 }) else { return }
                    console.endNow(128 + number)
                }
            }
        }
    }

    /// Stops watching and restores the handlers there were before.
    func cancel() {
        state.cancelled.withLock { $0 = true }
        watching.cancel()
        for (number, handler) in previous { Foundation.signal(number, handler) }
    }
}
