import PipelineCore

/// An earlier send of the same notification (same idempotency key), as the journal remembers it.
package struct PriorSend: Sendable, Equatable {
    /// The run that sent it.
    package var runId: String
    /// When it was last recorded (epoch seconds): accepted, or marked sending.
    package var at: Double
    /// `accepted`, `sending` or `unknown`.
    package var state: ItemState
    /// Where that item came from (`rows.csv:42`).
    package var origin: String
    /// True when it is an item of the asking run.
    package var sameRun: Bool
    /// Its notification id, when the hub gave one.
    package var notificationId: String?
    /// That item's step and row, when the journal gave them: rows skipped because of it are then kept as ranges
    /// (`SkipRange`), not one record each.
    package var key: LedgerKey?

    /// Creates a prior send.
    package init(
        runId: String, at: Double, state: ItemState, origin: String, sameRun: Bool, notificationId: String? = nil,
        key: LedgerKey? = nil
    ) {
        self.runId = runId
        self.at = at
        self.state = state
        self.origin = origin
        self.sameRun = sameRun
        self.notificationId = notificationId
        self.key = key
    }
}
