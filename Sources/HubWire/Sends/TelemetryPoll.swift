import Foundation

/// When to ask NH for a notification's telemetry again: 1 s, then twice as long each time up to 30 s, never past the
/// deadline. Telemetry takes seconds to minutes to become final (and a new id can read 404 for a while), so a fixed
/// short interval would spend the hub's quota and a fixed long one would keep a run waiting.
public struct TelemetryPoll: Sendable {
    /// The next wait, in seconds.
    public private(set) var next: Double
    /// The longest wait.
    public let ceiling: Double

    /// Starts at `first` seconds, doubling up to `ceiling`.
    public init(first: Double = 1, ceiling: Double = 30) {
        self.next = first
        self.ceiling = ceiling
    }

    /// The seconds to wait before asking again, or nil when asking again would pass `deadline`.
    public mutating func nextDelay(now: Date, deadline: Date) -> Double? {
        let left = deadline.timeIntervalSince(now)
        guard left > 0 else { return nil }
        let delay = min(next, left)
        next = min(next * 2, ceiling)
        return delay
    }
}
