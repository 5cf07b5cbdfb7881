/// The run store could not be opened, read or written.
///
/// Every message names the store (its path, or its URL without the password), because a cron job's log is
/// often the only place a person sees it and "database is locked" alone does not say which file to look at.
package struct RunStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What an orchestrator should do about it: the exit code a run that could not start ends with follows it.
    package enum Kind: String, Sendable, Equatable {
        /// The store is set up wrongly (a login it rejects, a database that does not exist, a file that is not
        /// a journal, a schema newer than this build): running again will not help until a person fixes it.
        case configuration
        /// The store cannot be reached or is busy right now (connection refused, server shutting down): running
        /// again later resumes.
        case unavailable
        /// Anything else.
        case failure
    }

    /// What went wrong, for people.
    package let message: String
    /// Whether it is worth retrying.
    package let kind: Kind
    /// What to do, when the store knows better than a generic "check the store" (a lost lock).
    package var hint: String?

    /// Creates an error.
    package init(_ message: String, kind: Kind = .failure, hint: String? = nil) {
        self.message = message
        self.kind = kind
        self.hint = hint
    }

    /// The message.
    package var description: String { message }
}
