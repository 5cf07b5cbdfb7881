/// What a `for-each` step does with malformed records its input check finds.
public enum BadRowPolicy: String, Sendable, CaseIterable {
    /// Send nothing at all (the run stops before its first send); the default.
    case stop
    /// Send the good records; the malformed ones are counted `bad` and reported.
    case skip

    /// The option every step with an input file declares.
    public static let option = OptionSpec(
        "bad-rows", .oneOf(allCases.map(\.rawValue)), default: BadRowPolicy.stop.rawValue,
        "what to do when the input check finds malformed rows: stop (send nothing, the default) or skip (send the rest, report them)")
}
