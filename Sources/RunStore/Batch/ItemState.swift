import PipelineCore

/// An item's life: `pending` → `sending` → `accepted` | `failed` | `unknown`; or, never sent, `duplicate`
/// (the same notification was sent already) or `bad` (a malformed record of the input).
package enum ItemState: String, Sendable, CaseIterable, Codable {
    /// Known, not started.
    case pending
    /// Its request may have been written; if the run stops now, its fate is unknown.
    case sending
    /// The hub accepted it.
    case accepted
    /// It failed for a known reason (nothing was accepted).
    case failed
    /// The request may or may not have been accepted (no answer after writing, 500, 504).
    case unknown
    /// Not sent: its idempotency key was accepted already (another run within the dedupe window, or an
    /// earlier row of this run).
    case duplicate
    /// Not sent: the input record is malformed.
    case bad
}
