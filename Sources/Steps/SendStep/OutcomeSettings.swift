import PipelineCore

/// `outcomes: { wait: 10m, sample: 100 }`: after sending, read NH's telemetry for the step's notifications until each
/// is final or the wait ends.
struct OutcomeSettings: Sendable, Equatable {
    /// Seconds to wait at most.
    var wait: Double
    /// Notifications read at most.
    var sample: Int
}
