import PipelineCore

/// `outcomes: { wait: 10m, sample: 100 }`: after sending, read NH's telemetry for the step's notifications until each
/// is final or the wait ends.
struct OutcomeSettings: Sendable, Equatable {
    /// The keys of `outcomes:`.
    static let keys = [
        OptionSpec("wait", .duration, required: true, examples: ["10m"],
                   "how long to wait for final outcomes after the last send; the run waits at most this long (1s to 6h)"),
        OptionSpec("sample", .integer, default: "100", examples: ["100"],
                   "how many of the step's notifications to read (1 to 1000); a larger batch is read through a uniform sample of this size"),
    ]

    /// Seconds to wait at most.
    var wait: Double
    /// Notifications read at most.
    var sample: Int
}
