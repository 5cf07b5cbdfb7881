import PipelineCore

/// How many of a run's items one step has in one state (encoded as `runs show --format json` and `/v1/runs/{id}` print it).
package struct StepCount: Sendable, Equatable, Encodable {
    /// The step's index in the pipeline (0-based).
    package var step: Int
    /// The step's id (`send`, `register`).
    package var stepId: String
    /// The state counted.
    package var state: ItemState
    /// How many items are in it.
    package var count: Int

    /// Creates a count.
    package init(step: Int, stepId: String, state: ItemState, count: Int) {
        self.step = step
        self.stepId = stepId
        self.state = state
        self.count = count
    }
}
