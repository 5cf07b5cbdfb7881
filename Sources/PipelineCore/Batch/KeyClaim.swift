/// What marking items `sending` checks first (`ItemLedger.markSending(_:claim:)`): whether a run already holds
/// their idempotency keys, so two runs that overlap send each notification once.
public struct KeyClaim: Sendable, Equatable {
    /// Items recorded at or after this time (epoch seconds) hold their key: the dedupe window.
    public var since: Double
    /// Whether another run's accepted item holds the key (not under `--again`).
    public var acceptedHolds: Bool
    /// Whether another run's item being sent, or of unknown fate, holds the key (not under `--resend-unknown`).
    public var unsettledHolds: Bool

    /// Creates a claim.
    public init(since: Double, acceptedHolds: Bool = true, unsettledHolds: Bool = true) {
        self.since = since
        self.acceptedHolds = acceptedHolds
        self.unsettledHolds = unsettledHolds
    }

    /// Whether `prior` holds the key against this claim: this run's own other item always does.
    public func isHeld(by prior: PriorSend) -> Bool {
        if prior.sameRun { return true }
        return prior.state == .accepted ? acceptedHolds : unsettledHolds
    }
}
