import PipelineCore

/// An item as it is first recorded.
package struct LedgerItem: Sendable, Equatable {
    /// Which item.
    package var key: LedgerKey
    /// The step's id (`send`, `register`).
    package var stepId: String
    /// Where it came from, for people: `rows.csv:42`.
    package var origin: String
    /// A digest of the row's content, so a resumed run can tell the row is the same one.
    package var digest: String
    /// The idempotency key: the same key means the same notification, across runs.
    package var idempotencyKey: String?
    /// Whom it is for, for `pushline runs find`: the audience, handle(s) or installation id.
    package var target: String?
    /// Whether marking it `sending` claims its idempotency key (`ItemLedger.markSending(_:claim:)`): set for items
    /// that must not be sent while another run holds the same key; off for items safe to repeat.
    package var claimsKey = false

    /// Creates an item.
    package init(
        key: LedgerKey, stepId: String, origin: String, digest: String, idempotencyKey: String? = nil,
        target: String? = nil
    ) {
        self.key = key
        self.stepId = stepId
        self.origin = origin
        self.digest = digest
        self.idempotencyKey = idempotencyKey
        self.target = target
    }
}
