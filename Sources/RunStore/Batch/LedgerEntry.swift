import PipelineCore

/// What an earlier attempt recorded.
package struct LedgerEntry: Sendable, Equatable {
    /// Which item.
    package var key: LedgerKey
    /// The row digest recorded then.
    package var digest: String
    /// Its state then.
    package var state: ItemState
    /// Requests made for it so far.
    package var attempts: Int
    /// The notification id, when accepted with one.
    package var notificationId: String?
    /// The recorded error.
    package var error: String?
    /// Whether a retry may succeed.
    package var retriable: Bool

    /// Creates an entry.
    package init(
        key: LedgerKey, digest: String, state: ItemState, attempts: Int, notificationId: String? = nil,
        error: String? = nil, retriable: Bool = false
    ) {
        self.key = key
        self.digest = digest
        self.state = state
        self.attempts = attempts
        self.notificationId = notificationId
        self.error = error
        self.retriable = retriable
    }
}
