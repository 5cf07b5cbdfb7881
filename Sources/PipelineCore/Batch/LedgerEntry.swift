/// What an earlier attempt recorded.
public struct LedgerEntry: Sendable, Equatable {
    /// Which item.
    public var key: LedgerKey
    /// The row digest recorded then.
    public var digest: String
    /// Its state then.
    public var state: ItemState
    /// Requests made for it so far.
    public var attempts: Int
    /// The notification id, when accepted with one.
    public var notificationId: String?
    /// The recorded error.
    public var error: String?
    /// Whether a retry may succeed.
    public var retriable: Bool

    /// Creates an entry.
    public init(key: LedgerKey, digest: String, state: ItemState, attempts: Int, notificationId: String? = nil,
                error: String? = nil, retriable: Bool = false) {
        self.key = key
        self.digest = digest
        self.state = state
        self.attempts = attempts
        self.notificationId = notificationId
        self.error = error
        self.retriable = retriable
    }
}
