/// The run store could not be opened, read or written.
///
/// Every message names the store (its path, or its URL without the password), because a cron job's log is
/// often the only place a person sees it and "database is locked" alone does not say which file to look at.
public struct RunStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for people.
    public let message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
