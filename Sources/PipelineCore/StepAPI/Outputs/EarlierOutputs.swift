/// What the steps that ran before hand on, by their `id:`, for `${steps.ID.OUTPUT}` in a later step's options.
package struct EarlierOutputs: Sendable {
    private var produced: [String: StepOutputs] = [:]
    private var indexes: [String: Int] = [:]

    /// No step has run yet.
    package init() {}

    /// Records what the step with `id` handed on (the engine records every step, run or not: `HandedOn`), and its
    /// 1-based position in `steps:` when known.
    package mutating func record(_ outputs: StepOutputs, of id: String, at index: Int? = nil) {
        produced[id] = outputs
        if let index { indexes[id] = index }
    }

    /// The 1-based position in `steps:` of the earlier step with `id`: where the run journal keeps its items.
    package func index(of id: String) -> Int? { indexes[id] }

    /// The value `reference` names, or a failure that names both steps.
    package func value(of reference: OutputReference, for consumer: String) throws(StepFailure) -> OutputValue {
        guard let value = produced[reference.step]?[reference.output] else {
            throw StepFailure(
                "\(consumer) uses \(reference.written), but step '\(reference.step)' has not produced '\(reference.output)'",
                hint: "the steps reference lists each step's outputs"
            ).coded(.referenceUnavailable)
        }
        return value
    }
}
