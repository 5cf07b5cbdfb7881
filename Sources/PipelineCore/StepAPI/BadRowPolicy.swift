/// What a `for-each` step does with malformed records its input check finds.
public enum BadRowPolicy: String, Sendable, CaseIterable {
    /// Send nothing at all (the run stops before its first send); the default.
    case stop
    /// Send the good records; the malformed ones are counted `bad` and reported.
    case skip

}
