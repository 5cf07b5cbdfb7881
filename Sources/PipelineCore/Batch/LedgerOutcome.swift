/// An item's final outcome.
public struct LedgerOutcome: Sendable, Equatable {
    /// The item.
    public var item: LedgerItem
    /// `accepted`, `failed` or `unknown`.
    public var state: ItemState
    /// The notification id from `Location`, when the hub gave one.
    public var notificationId: String?
    /// Why it failed or is unknown (never holds a secret).
    public var error: String?
    /// True when sending it again may succeed (throttling, server errors, unreachable hub).
    public var retriable: Bool

    /// Creates an outcome.
    public init(item: LedgerItem, state: ItemState, notificationId: String? = nil, error: String? = nil, retriable: Bool = false) {
        self.item = item
        self.state = state
        self.notificationId = notificationId
        self.error = error
        self.retriable = retriable
    }
}
