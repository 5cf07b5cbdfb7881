import Foundation
import PipelineCore
import Synchronization

/// A case's time: it starts where a run's `now:` puts it and moves on with the machine's monotonic clock, so a run's
/// timestamps, tokens and waits behave as they would, and a later run can be set a day on. The pipeline and the hub
/// read the same clock.
final class TestClock: Sendable {
    private let origin = Mutex<(date: Date, instant: ContinuousClock.Instant)>((Date(), .now))

    /// Now, on this clock.
    func now() -> Date {
        let (date, instant) = origin.withLock { $0 }
        let elapsed = instant.duration(to: .now)
        return date.addingTimeInterval(
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Sets the time to `date` from here on.
    func set(_ date: Date) {
        origin.withLock { $0 = (date, .now) }
    }

    /// Moves the time on by `seconds` at once: a retry's wait, passed without waiting.
    func advance(_ seconds: Double) {
        origin.withLock { $0.date.addTimeInterval(seconds) }
    }

    /// The clock as the pipeline reads it.
    var wallClock: WallClock { WallClock { [self] in now() } }
}
