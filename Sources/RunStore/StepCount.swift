import PipelineCore

/// How many of a run's items one step has in one state (encoded as `runs show --format json` and `/v1/runs/{id}` print it).
public struct StepCount: Sendable, Equatable, Encodable {
    /// The step's index in the pipeline (0-based).
    public var step: Int
    /// The step's id (`send`, `register`).
    public var stepId: String
    /// The state counted.
    public var state: ItemState
    /// How many items are in it.
    public var count: Int

    /// Creates a count.
    public init(step: Int, stepId: String, state: ItemState, count: Int) {
        self.step = step
        self.stepId = stepId
        self.state = state
        self.count = count
    }
}
