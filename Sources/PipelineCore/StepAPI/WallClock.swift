import Foundation

/// The time source steps use, so tests can fix "now" (token expiry, report timestamps).
public struct WallClock: Sendable {
    /// Returns the current time.
    public var now: @Sendable () -> Date

    /// Creates a clock from a time source.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system clock.
    public static let system = WallClock { Date() }

    /// A clock stopped at `date`.
    public static func fixed(_ date: Date) -> WallClock { WallClock { date } }

    /// Whole seconds since the Unix epoch, as SAS expiries use.
    public var epochSeconds: Int64 { Int64(now().timeIntervalSince1970.rounded(.down)) }
}
