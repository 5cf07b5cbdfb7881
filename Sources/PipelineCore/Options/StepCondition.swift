/// When a step runs (`when:` beside its kind), judged from how the steps before it ended.
public enum StepCondition: String, Sendable, Equatable, CaseIterable {
    /// Every earlier step succeeded or was skipped (the default).
    case success
    /// An earlier step failed: a step that tells someone, or cleans up.
    case failure
    /// Whatever happened before (not after a stop signal, which ends the run).
    case always

    /// Whether a step with this condition runs after steps of which some failed (`failed`).
    public func holds(afterFailure failed: Bool) -> Bool {
        switch self {
        case .success: !failed
        case .failure: failed
        case .always: true
        }
    }
}
