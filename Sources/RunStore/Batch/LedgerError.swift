import PipelineCore

/// The journal could not be read or written; the run stops rather than send without a record.
package struct LedgerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for people.
    package let message: String
    /// What to do, when the store knows (a lost lock needs nothing from a person); else a generic check of the store.
    package let hint: String?

    /// Creates an error.
    package init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// The message.
    package var description: String { message }

    /// The step failure a journal error becomes: the run stops rather than send without a record.
    package var stepFailure: StepFailure {
        StepFailure(
            "the run journal cannot be written: \(message); stopped so that nothing is sent without a record",
            hint: hint
                ?? ("check the run journal (--journal or PUSHLINE_JOURNAL): a file's disk and permissions, or that a "
                    + "PostgreSQL store's server is up; then run again to resume")
        )
        .coded(.journalUnavailable)
    }
}
