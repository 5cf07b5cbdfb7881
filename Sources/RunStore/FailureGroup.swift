import PipelineCore

/// Failed or unknown items of one step that share an error, so a report can say
/// "412 rows: 403 Forbidden (rows.csv:2, rows.csv:9, …)" instead of listing every row.
package struct FailureGroup: Sendable, Equatable, Encodable {
    /// The step's index in the pipeline (0-based).
    package var step: Int
    /// The step's id (`send`, `register`).
    package var stepId: String
    /// `failed` or `unknown`.
    package var state: ItemState
    /// The shared error text; nil when the items recorded none.
    package var error: String?
    /// How many items share it.
    package var count: Int
    /// The origins of the first few of them, in row order.
    package var examples: [String]

    /// The JSON keys (`runs show --format json`): the error is the group's `reason`.
    enum CodingKeys: String, CodingKey {
        case step, stepId, state
        case error = "reason"
        case count, examples
    }

    /// Creates a group.
    package init(step: Int, stepId: String, state: ItemState, error: String?, count: Int, examples: [String]) {
        self.step = step
        self.stepId = stepId
        self.state = state
        self.error = error
        self.count = count
        self.examples = examples
    }
}
