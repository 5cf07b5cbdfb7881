/// When a step runs (`when:` beside its kind): a word judged from how the steps before it ended, or an expression.
package enum StepCondition: Sendable, Equatable {
    /// Every earlier step succeeded or was skipped (the default).
    case success
    /// An earlier step failed: a step that tells someone, or cleans up.
    case failure
    /// Whatever happened before (not after a stop signal, which ends the run).
    case always
    /// An expression over outputs, parameters, variables and the run's state. Unless it reads `failure` or
    /// `always`, it holds only when no earlier step failed, as `success` does.
    case expression(ConditionExpression, written: String)

    /// The words `when:` may be.
    package static let keywords = ["success", "failure", "always"]

    /// The word for `text`, if it is one.
    package init?(keyword text: String) {
        switch text {
        case "success": self = .success
        case "failure": self = .failure
        case "always": self = .always
        default: return nil
        }
    }

    /// As written.
    package var written: String {
        switch self {
        case .success: "success"
        case .failure: "failure"
        case .always: "always"
        case .expression(_, let written): written
        }
    }

    /// Whether a step with this condition runs, in `situation`; throws when the expression reads an output that
    /// is not there (a skipped step's, say).
    package func holds(_ situation: ConditionSituation) throws(StepFailure) -> Bool {
        switch self {
        case .success: return !situation.earlierFailed
        case .failure: return situation.earlierFailed
        case .always: return true
        case .expression(let expression, _):
            if situation.earlierFailed, !expression.readsFailure { return false }
            return try expression.evaluate(situation).isTrue
        }
    }
}
