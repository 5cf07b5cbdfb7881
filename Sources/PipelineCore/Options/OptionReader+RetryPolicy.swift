/// The retry keys, shared by every step that talks to a hub, so they read and check alike.
package enum RetryOptions {
    /// `retries`, with the .NET SDK's default.
    package static let retries = OptionKey<Int>.integer(
        "retries", in: 0...10, default: RetryPolicy().maxRetries,
        "retries after throttling (429, 403 with Retry-After), busy (503) and timeout (408) answers and connection failures"
    )
    /// `retry-delay`.
    package static let retryDelay = OptionKey<Int64>.duration(
        "retry-delay", in: 1...60, default: Int64(RetryPolicy().baseDelay),
        "the first backoff delay, doubled per retry with jitter")
    /// `retry-max-delay`.
    package static let retryMaxDelay = OptionKey<Int64>.duration(
        "retry-max-delay", in: 1...3600, default: Int64(RetryPolicy().maxDelay),
        "the longest wait between attempts, Retry-After included; at least `retry-delay`")
    /// `retry-ambiguous` (steps whose requests may deliver twice when resent declare it).
    package static let retryAmbiguous = OptionKey<Bool>.flag(
        "retry-ambiguous", default: RetryPolicy().retryAmbiguous,
        "resend when the outcome is unknown (timeout after writing, 500, 504); may deliver twice")

    /// `retries`, `retry-delay` and `retry-max-delay`.
    package static let specs = [retries.spec, retryDelay.spec, retryMaxDelay.spec]
}

/// The retry keys as a group of a step's declared options: `@KeyGroup var retry: RetryKeys`.
package struct RetryKeys: DeclaredOptions {
    /// `retries`.
    @Key(RetryOptions.retries) package var retries: Int
    /// `retry-delay`, in seconds.
    @Key(RetryOptions.retryDelay) package var delay: Int64
    /// `retry-max-delay`, in seconds.
    @Key(RetryOptions.retryMaxDelay) package var maxDelay: Int64

    /// The defaults.
    package init() {}

    /// The longest wait cannot be shorter than the first.
    package func check(_ reader: OptionReader) {
        guard $delay.isRead || $maxDelay.isRead, !$delay.isRefused, !$maxDelay.isRefused, maxDelay < delay else {
            return
        }
        reader.error(
            "'retry-max-delay' (\(ConfigDuration.format(maxDelay))) is shorter than 'retry-delay' (\(ConfigDuration.format(delay)))",
            at: $maxDelay.node ?? $delay.node ?? reader.node, hint: "raise `retry-max-delay` or lower `retry-delay`")
    }

    /// The policy the keys give, resending ambiguous requests when `ambiguous`.
    package func policy(ambiguous: Bool = false) -> RetryPolicy {
        RetryPolicy(
            maxRetries: retries, baseDelay: Double(delay), maxDelay: Double(maxDelay), retryAmbiguous: ambiguous)
    }
}
