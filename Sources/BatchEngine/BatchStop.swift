import PipelineCore

/// Why a batch stopped starting items: a failure every further item would share (the key or a right is
/// refused, the hub is unreachable or does not exist), the journal failed, the input became unreadable, or
/// the run was cancelled. Items in flight finish and are recorded first.
package struct BatchStop: Sendable, Equatable {
    /// What stopped it.
    package enum Cause: Sendable, Equatable {
        /// The hub refused or could not be reached, in a way every request would meet.
        case hub
        /// The run journal could not be read or written.
        case journal
        /// The item source failed (the input file became unreadable).
        case source
        /// The task running the batch was cancelled.
        case cancelled
    }

    /// What stopped it.
    package var cause: Cause
    /// What happened, for people.
    package var message: String
    /// What to do about it.
    package var hint: String?
    /// The request report of the failure that stopped it, when there is one.
    package var data: ReportValue
    /// For a hub stop: true when the hub was not reached (no answer), false when it answered with a refusal.
    package var unreachable = false

    /// Creates a stop.
    package init(_ cause: Cause, message: String, hint: String? = nil, data: ReportValue = .object([])) {
        self.cause = cause
        self.message = message
        self.hint = hint
        self.data = data
    }

    /// The stop as the step's failure.
    package var failure: StepFailure {
        let code: StepFailure.Code =
            switch cause {
            case .hub: unreachable ? .hubUnreachable : .hubRefused
            case .journal: .journalUnavailable
            case .source: .inputRejected
            case .cancelled: .stopped
            }
        return StepFailure(message, hint: hint, data: data).coded(code)
    }
}
