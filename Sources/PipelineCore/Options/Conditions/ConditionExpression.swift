/// A `when:` expression: a boolean over earlier steps' outputs, parameters, environment references, how the
/// steps before ended and whether the run is a dry run.
///
/// `${param:…}` and `${env:…}` are known when the pipeline is loaded and are values here already; step outputs
/// are read when the step is about to run. Written text is kept for messages, never a resolved value (a
/// parameter or a variable may hold something that must not reach a log).
package indirect enum ConditionExpression: Sendable, Equatable {
    /// A value known when the pipeline is loaded: a literal, a parameter or an environment variable, with how
    /// it is written (messages quote that, never a parameter's or a variable's value).
    case constant(ConditionValue, written: String)
    /// An earlier step's output.
    case output(OutputReference)
    /// How the run stands: `success`, `failure`, `always`, `dry-run`.
    case status(ConditionStatus)
    /// `!x`.
    case not(ConditionExpression)
    /// `a && b`.
    case and(ConditionExpression, ConditionExpression)
    /// `a || b`.
    case or(ConditionExpression, ConditionExpression)
    /// `a == b`, `a < b`, ….
    case compare(ConditionComparison, ConditionExpression, ConditionExpression)

    /// True when the expression reads how earlier steps ended (`failure` or `always`); otherwise it holds only
    /// when no earlier step failed, as `when: success` does.
    package var readsFailure: Bool {
        switch self {
        case .status(let status): status == .failure || status == .always
        case .not(let inner): inner.readsFailure
        case .and(let left, let right), .or(let left, let right), .compare(_, let left, let right):
            left.readsFailure || right.readsFailure
        case .constant, .output: false
        }
    }

    /// The operand or expression as written (with the parameters and variables it reads named, not their values).
    package var written: String {
        switch self {
        case .constant(_, let written): written
        case .output(let reference): reference.written
        case .status(let status): status.rawValue
        case .not(let inner): "!" + inner.written
        case .and(let left, let right): "\(left.written) && \(right.written)"
        case .or(let left, let right): "\(left.written) || \(right.written)"
        case .compare(let comparison, let left, let right): "\(left.written) \(comparison.rawValue) \(right.written)"
        }
    }

    /// Every step output the expression reads.
    package var outputReferences: [OutputReference] {
        switch self {
        case .output(let reference): [reference]
        case .not(let inner): inner.outputReferences
        case .and(let left, let right), .or(let left, let right), .compare(_, let left, let right):
            left.outputReferences + right.outputReferences
        case .constant, .status: []
        }
    }

    /// The expression's value when the step is about to run.
    func evaluate(_ situation: ConditionSituation) throws(StepFailure) -> ConditionValue {
        switch self {
        case .constant(let value, _):
            return value
        case .output(let reference):
            let value = try situation.outputs.value(of: reference, for: situation.consumer)
            switch (value, reference.index) {
            case (.integer(let number), _): return .integer(number)
            case (.string(let text), _): return .string(text)
            case (.boolean(let value), _): return .boolean(value)
            case (.list(let values, let total), nil): return .list(values, total: total)
            case (.rows, _):
                // Refused when the pipeline is loaded; kept for a value that came from elsewhere.
                throw StepFailure(
                    "\(situation.consumer)'s when: reads \(reference.written), rows, which a condition cannot compare",
                    hint: "compare the rows' count instead"
                ).coded(.referenceUnavailable)
            case (.list(let values, let total), let index?):
                guard index < values.count else {
                    throw StepFailure(
                        "\(situation.consumer)'s when: reads \(reference.written), but '\(reference.output)' of step '\(reference.step)' "
                            + (index < total
                                ? "hands on only its first \(values.count) items"
                                : "holds \(total) item\(total == 1 ? "" : "s")"),
                        hint:
                            "compare the list's size instead, e.g. \(OutputReference(step: reference.step, output: reference.output).written) != []"
                    ).coded(.referenceUnavailable)
                }
                return .string(values[index])
            }
        case .status(let status):
            switch status {
            case .success: return .boolean(!situation.earlierFailed)
            case .failure: return .boolean(situation.earlierFailed)
            case .always: return .boolean(true)
            case .dryRun: return .boolean(situation.isDryRun)
            }
        case .not(let inner):
            return .boolean(!(try inner.evaluate(situation).isTrue))
        case .and(let left, let right):
            guard try left.evaluate(situation).isTrue else { return .boolean(false) }
            return .boolean(try right.evaluate(situation).isTrue)
        case .or(let left, let right):
            if try left.evaluate(situation).isTrue { return .boolean(true) }
            return .boolean(try right.evaluate(situation).isTrue)
        case .compare(let comparison, let left, let right):
            return .boolean(comparison.holds(try left.evaluate(situation), try right.evaluate(situation)))
        }
    }
}
