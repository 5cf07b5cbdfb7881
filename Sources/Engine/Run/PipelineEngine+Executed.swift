import PipelineCore

extension PipelineEngine {
    /// What running one step gave: its record, the outputs it produced (nil when it produced none), and whether its
    /// notifications reached no device.
    struct Executed: Sendable {
        var record: StepRecord
        var produced: StepOutputs?
        var reachedNoDevice = false
        /// The step refused its input before sending anything (`StepFailure.rejectsInput`).
        var rejectsInput = false
    }
}
