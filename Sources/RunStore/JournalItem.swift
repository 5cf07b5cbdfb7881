import PipelineCore

/// One item of a run, as the journal last recorded it: the ledger's entry for it (what a resumed run reads back)
/// and what the journal keeps beside it for people and for `runs find`.
@dynamicMemberLookup
package struct JournalItem: Sendable, Equatable {
    /// What the batch engine recorded: key, digest, state, attempts, notification id, error, retriable.
    package var entry: LedgerEntry
    /// The step's id (`send`, `register`).
    package var stepId: String
    /// Where it came from, for people: `rows.csv:42`.
    package var origin: String
    /// When it was last written (seconds since the Unix epoch).
    package var updatedAt: Double
    /// Its idempotency key, when it has one.
    package var idempotencyKey: String?
    /// Whom it was for: the audience, handle(s) or installation id.
    package var target: String?
    /// Who settled it by hand (`pushline runs resolve`), when, and how.
    package var resolution: String?

    /// Creates an item.
    package init(
        key: LedgerKey, stepId: String, origin: String, digest: String, state: ItemState, attempts: Int,
        notificationId: String? = nil, error: String? = nil, retriable: Bool = false, updatedAt: Double,
        idempotencyKey: String? = nil, target: String? = nil, resolution: String? = nil
    ) {
        entry = LedgerEntry(
            key: key, digest: digest, state: state, attempts: attempts, notificationId: notificationId,
            error: error, retriable: retriable)
        self.stepId = stepId
        self.origin = origin
        self.updatedAt = updatedAt
        self.idempotencyKey = idempotencyKey
        self.target = target
        self.resolution = resolution
    }

    /// The entry's fields read as the item's own (`item.state`, `item.key`).
    package subscript<Value>(dynamicMember path: WritableKeyPath<LedgerEntry, Value>) -> Value {
        get { entry[keyPath: path] }
        set { entry[keyPath: path] = newValue }
    }
}
