/// The retry option keys, shared by every step that talks to a hub, so they read and check alike.
extension OptionSpec {
    /// `retries`, `retry-delay` and `retry-max-delay`, with the .NET SDK's defaults.
    public static let retryPolicy: [OptionSpec] = [
        OptionSpec("retries", .integer, default: "3",
                   "retries after throttling (429, 403 with Retry-After), busy (503) and timeout (408) answers and connection failures (0 to 10)"),
        OptionSpec("retry-delay", .duration, default: "1s", "the first backoff delay, doubled per retry with jitter (1s to 1m)"),
        OptionSpec("retry-max-delay", .duration, default: "1m",
                   "the longest wait between attempts, Retry-After included (1s to 1h); at least `retry-delay`"),
    ]
}

extension OptionReader {
    /// Reads `retries`, `retry-delay` and `retry-max-delay` (and `retry-ambiguous` when the step
    /// declares it) into a policy; nil after reporting a problem.
    public func retryPolicy() -> RetryPolicy? {
        let defaults = RetryPolicy()
        let errorsBefore = diagnostics.errorCount
        let retries = node("retries") != nil ? integer("retries", in: 0...10) : defaults.maxRetries
        let base = node("retry-delay") != nil ? duration("retry-delay", in: 1...60) : Int64(defaults.baseDelay)
        let cap = node("retry-max-delay") != nil ? duration("retry-max-delay", in: 1...3600) : Int64(defaults.maxDelay)
        let ambiguous = bool("retry-ambiguous") ?? defaults.retryAmbiguous
        guard diagnostics.errorCount == errorsBefore, let retries, let base, let cap else { return nil }
        guard cap >= base else {
            error("'retry-max-delay' (\(ConfigDuration.format(cap))) is shorter than 'retry-delay' (\(ConfigDuration.format(base)))",
                  at: node("retry-max-delay") ?? node("retry-delay") ?? self.node,
                  hint: "raise `retry-max-delay` or lower `retry-delay`")
            return nil
        }
        return RetryPolicy(maxRetries: retries, baseDelay: Double(base), maxDelay: Double(cap), retryAmbiguous: ambiguous)
    }
}
