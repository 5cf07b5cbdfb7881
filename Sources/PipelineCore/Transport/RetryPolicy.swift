import HubWire

/// How hard to try (defaults like the .NET SDK: 3 retries, 1 s base delay, 1 min cap).
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt.
    public var maxRetries: Int
    /// The first backoff delay, in seconds; doubled per retry, with jitter.
    public var baseDelay: Double
    /// The longest wait between attempts, in seconds (a longer Retry-After is still honoured up to this).
    public var maxDelay: Double
    /// Resend a send whose outcome is unknown (timeout or reset after writing, 500, 504). Off by
    /// default: NH has no idempotency key, so a resend may deliver twice.
    public var retryAmbiguous: Bool
    /// Told when the hub throttles, before the transport waits (a batch's `RateGovernor`); nil for nobody.
    /// Not part of equality: it says who listens, not how hard to try.
    package var throttle: (any ThrottleObserver)?

    /// Creates a policy.
    public init(maxRetries: Int = 3, baseDelay: Double = 1, maxDelay: Double = 60, retryAmbiguous: Bool = false) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retryAmbiguous = retryAmbiguous
    }

    public static func == (lhs: RetryPolicy, rhs: RetryPolicy) -> Bool {
        lhs.maxRetries == rhs.maxRetries && lhs.baseDelay == rhs.baseDelay && lhs.maxDelay == rhs.maxDelay
            && lhs.retryAmbiguous == rhs.retryAmbiguous
    }
}
