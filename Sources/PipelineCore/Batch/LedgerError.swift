/// The journal could not be read or written; the run stops rather than send without a record.
public struct LedgerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for people.
    public let message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The step failure a journal error becomes: the run stops rather than send without a record.
    public var stepFailure: StepFailure {
        StepFailure("the run journal cannot be written: \(message); stopped so that nothing is sent without a record",
                    hint: "check the run journal (--journal or PUSHLINE_JOURNAL): a file's disk and permissions, or that a PostgreSQL "
                        + "store's server is up; then run again to resume")
    }
}
