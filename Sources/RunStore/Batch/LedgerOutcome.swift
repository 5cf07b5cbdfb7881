import PipelineCore

/// An item's final outcome.
package struct LedgerOutcome: Sendable, Equatable {
    /// The item.
    package var item: LedgerItem
    /// `accepted`, `failed` or `unknown`.
    package var state: ItemState
    /// The notification id from `Location`, when the hub gave one.
    package var notificationId: String?
    /// Why it failed or is unknown (never holds a secret).
    package var error: String?
    /// True when sending it again may succeed (throttling, server errors, unreachable hub).
    package var retriable: Bool

    /// Creates an outcome.
    package init(
        item: LedgerItem, state: ItemState, notificationId: String? = nil, error: String? = nil, retriable: Bool = false
    ) {
        self.item = item
        self.state = state
        self.notificationId = notificationId
        self.error = error
        self.retriable = retriable
    }
}
