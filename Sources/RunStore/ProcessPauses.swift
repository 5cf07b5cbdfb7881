import Foundation
import Synchronization

/// When this process did not run: stopped by SIGSTOP, frozen with its machine, or starved of CPU.
///
/// A process cannot see its own pause while it happens, only the gap afterwards, so a thread of its own wakes every
/// `tick` and records any wake that came more than `threshold` late. A store call that runs out of time, or a lock
/// that was taken over, can then say that this process stood still, not that the store was down.
///
/// Whoever starts a watch owns it and stops it (a PostgreSQL store, from its opening to its `close`): nothing in the
/// process keeps a thread of its own running behind its back.
package final class ProcessPauses: Sendable {

    /// A pause: how long, and when it ended.
    package struct Pause: Equatable, Sendable {
        package let end: ContinuousClock.Instant
        package let length: Duration
    }

    /// How often the watch wakes.
    package let tick: Duration
    /// How late a wake must be to count as a pause.
    package let threshold: Duration
    private let recent = Mutex<[Pause]>([])
    /// Whether the watch's thread runs: not yet, now, or no more.
    private let state = Mutex(State.idle)
    private enum State { case idle, watching, stopped }
    /// When the watch's thread last woke: a caller that resumes before it can see a gap still open.
    private let lastWake = Mutex<ContinuousClock.Instant?>(nil)

    /// A watch that wakes every `tick` and counts a wake more than `threshold` late as a pause.
    package init(tick: Duration = .milliseconds(250), threshold: Duration = .seconds(2)) {
        self.tick = tick
        self.threshold = threshold
    }

    /// Starts the watch's thread, once; later calls, and calls after `stop`, do nothing.
    package func start() {
        let first = state.withLock { state in
            guard state == .idle else { return false }
            state = .watching
            return true
        }
        guard first else { return }
        let seconds = Double(tick.components.seconds) + Double(tick.components.attoseconds) / 1e18
        // A thread, not a task: the cooperative pool may be busy with the run's own work, which is not a pause.
        lastWake.withLock { $0 = .now }
        Thread.detachNewThread { [self] in
            var last = ContinuousClock.now
            while state.withLock({ $0 == .watching }) {
                Thread.sleep(forTimeInterval: seconds)
                let now = ContinuousClock.now
                observe(previous: last, now: now)
                lastWake.withLock { $0 = now }
                last = now
            }
        }
    }

    /// Whether the watch's thread runs (started, not stopped).
    package var isWatching: Bool { state.withLock { $0 == .watching } }

    /// Stops the watch: its thread ends within a tick, and no pause is reported any more.
    package func stop() {
        state.withLock { $0 = .stopped }
        lastWake.withLock { $0 = nil }
    }

    /// Records a pause when a wake at `now` after one at `previous` came more than `threshold` late.
    package func observe(previous: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        let gap = now - previous
        guard gap > tick + threshold else { return }
        recent.withLock { pauses in
            pauses.append(Pause(end: now, length: gap - tick))
            if pauses.count > 32 { pauses.removeFirst(pauses.count - 32) }
        }
    }

    /// The longest pause that ended after `since` (within a call that started then), if any. A pause that has just
    /// ended counts though the watch's thread has not woken to record it yet: after SIGCONT, the call's timer and the
    /// watch wake together, in either order.
    package func longest(since: ContinuousClock.Instant, now: ContinuousClock.Instant = .now) -> Duration? {
        let recorded = recent.withLock { pauses in pauses.filter { $0.end > since }.map(\.length).max() }
        return [openPause(now: now), recorded].compactMap { $0 }.max()
    }

    /// The most recent pause that ended after `since`, if any (counting one just ended, as `longest` does).
    package func latest(since: ContinuousClock.Instant, now: ContinuousClock.Instant = .now) -> Duration? {
        openPause(now: now) ?? recent.withLock { pauses in pauses.last { $0.end > since }?.length }
    }

    /// The pause that ends at `now` when the watch has not woken for longer than a pause takes (nil when it has, or
    /// when it was never started).
    private func openPause(now: ContinuousClock.Instant) -> Duration? {
        guard state.withLock({ $0 != .stopped }), let last = lastWake.withLock({ $0 }), now - last > tick + threshold
        else { return nil }
        return now - last - tick
    }

    /// Sets when the watch last woke, as its thread does (for tests of a pause not yet recorded).
    package func woke(at instant: ContinuousClock.Instant) {
        lastWake.withLock { $0 = instant }
    }

    /// `duration` for a message: "41 s".
    package static func describe(_ duration: Duration) -> String {
        "\(duration.components.seconds) s"
    }

    /// The sentence a message about a call or a lock cut short by `pause` ends with.
    package static func explanation(_ pause: Duration) -> String {
        "this process did not run for \(describe(pause)) (it was stopped with SIGSTOP, its machine was frozen, or it had no CPU)"
    }
}
