import Dispatch
import Foundation
import PipelineCore

/// SIGINT and SIGTERM during a live run: the first asks the run to stop starting items (requests in
/// flight finish and are journalled); a second one, or a stop that takes longer than `grace`, ends
/// the process at once — the journal then shows those items `sending`, reported unknown on resume.
final class SignalWatch: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "pushline.signals")
    private let lock = NSLock()
    private var received: Int32?
    private var cancelled = false
    /// The dispositions before this watch, put back by `cancel`: a command that serves after a run
    /// (`demo --keep-running`) has its own watcher, which must keep working.
    private var previous: [(Int32, (@convention(c) (Int32) -> Void)?)] = []

    /// The signal that stopped the run, if any.
    var signal: Int32? { lock.withLock { received } }

    /// Starts watching; `stop` fires on the first signal.
    init(stop: StopSignal, console: Console, grace: Double = 30) {
        for number in [SIGINT, SIGTERM] {
            previous.append((number, Foundation.signal(number, SIG_IGN)))
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let first = self.lock.withLock { () -> Bool in
                    defer { if self.received == nil { self.received = number } }
                    return self.received == nil
                }
                guard first else { exit(128 + number) }
                console.errorLine("pushline: \(number == SIGINT ? "SIGINT" : "SIGTERM") received: no new items; letting requests in flight finish "
                                  + "(up to \(Int(grace)) s; signal again to stop at once)")
                stop.request()
                // Cancelled when the run ended in time: a front end that goes on afterwards (`demo`, `serve`)
                // must not be ended by a stop that already finished.
                self.queue.asyncAfter(deadline: .now() + grace) { [weak self] in
                    guard let self, !self.lock.withLock({ self.cancelled }) else { return }
                    exit(128 + number)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops watching and restores the handlers there were before.
    func cancel() {
        lock.withLock { cancelled = true }
        for source in sources { source.cancel() }
        for (number, handler) in previous { Foundation.signal(number, handler) }
    }
}
