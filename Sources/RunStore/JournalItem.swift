import PipelineCore

/// One item of a run, as the journal last recorded it.
public struct JournalItem: Sendable, Equatable {
    /// Which item.
    public var key: LedgerKey
    /// The step's id (`send`, `register`).
    public var stepId: String
    /// Where it came from, for people: `rows.csv:42`.
    public var origin: String
    /// The digest of the row's content.
    public var digest: String
    /// Its state.
    public var state: ItemState
    /// Requests made for it so far.
    public var attempts: Int
    /// The notification id, when accepted with one.
    public var notificationId: String?
    /// The recorded error.
    public var error: String?
    /// Whether a retry may succeed.
    public var retriable: Bool
    /// When it was last written (seconds since the Unix epoch).
    public var updatedAt: Double
    /// Its idempotency key, when it has one.
    public var idempotencyKey: String?
    /// Whom it was for: the audience, handle(s) or installation id.
    public var target: String?
    /// Who settled it by hand (`pushline runs resolve`), when, and how.
    public var resolution: String?

    /// Creates an item.
    public init(key: LedgerKey, stepId: String, origin: String, digest: String, state: ItemState, attempts: Int,
                notificationId: String? = nil, error: String? = nil, retriable: Bool = false, updatedAt: Double,
                idempotencyKey: String? = nil, target: String? = nil, resolution: String? = nil) {
        self.idempotencyKey = idempotencyKey
        self.target = target
        self.resolution = resolution
        self.key = key
        self.stepId = stepId
        self.origin = origin
        self.digest = digest
        self.state = state
        self.attempts = attempts
        self.notificationId = notificationId
        self.error = error
        self.retriable = retriable
        self.updatedAt = updatedAt
    }
}
