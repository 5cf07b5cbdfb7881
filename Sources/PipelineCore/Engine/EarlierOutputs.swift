/// What the steps that ran before hand on, by their `id:`, for `${steps.ID.OUTPUT}` in a later step's options.
package struct EarlierOutputs: Sendable {
    private var produced: [String: StepOutputs] = [:]
    /// Steps with an id that handed nothing on, and why (skipped, failed before producing, stopped).
    private var missing: [String: String] = [:]

    /// No step has run yet.
    package init() {}

    /// Records what the step with `id` handed on.
    package mutating func record(_ outputs: StepOutputs, of id: String) {
        produced[id] = outputs
        missing[id] = nil
    }

    /// Records that the step with `id` handed nothing on, and why ("was skipped: an earlier step failed").
    package mutating func recordMissing(_ id: String, because reason: String) {
        produced[id] = nil
        missing[id] = reason
    }

    /// The value `reference` names, or a failure that names both steps and says why there is none.
    package func value(of reference: OutputReference, for consumer: String) throws(StepFailure) -> OutputValue {
        if let reason = missing[reference.step] {
            throw StepFailure("\(consumer) uses \(reference.written), but step '\(reference.step)' \(reason), so it has no '\(reference.output)'",
                              hint: "give this step a `when:` that holds only when '\(reference.step)' ran, or do not use its output here")
        }
        guard let value = produced[reference.step]?[reference.output] else {
            throw StepFailure("\(consumer) uses \(reference.written), but step '\(reference.step)' has not produced '\(reference.output)'",
                              hint: "the steps reference lists each step's outputs")
        }
        return value
    }
}
