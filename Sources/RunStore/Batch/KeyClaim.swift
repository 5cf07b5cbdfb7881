import PipelineCore

/// What marking items `sending` checks first (`ItemLedger.markSending(_:claim:)`): whether a run already holds
/// their idempotency keys, so two runs that overlap send each notification once.
package struct KeyClaim: Sendable, Equatable {
    /// Items recorded at or after this time (epoch seconds) hold their key: the dedupe window.
    package var since: Double
    /// Whether another run's accepted item holds the key (not under `--again`).
    package var acceptedHolds: Bool
    /// Whether another run's item being sent, or of unknown fate, holds the key (not under `--resend-unknown`).
    package var unsettledHolds: Bool

    /// Creates a claim.
    package init(since: Double, acceptedHolds: Bool = true, unsettledHolds: Bool = true) {
        self.since = since
        self.acceptedHolds = acceptedHolds
        self.unsettledHolds = unsettledHolds
    }

    /// Whether `prior` holds the key against this claim: this run's own other item always does.
    package func isHeld(by prior: PriorSend) -> Bool {
        if prior.sameRun { return true }
        return prior.state == .accepted ? acceptedHolds : unsettledHolds
    }
}

extension KeyClaim {
    /// Splits `items`, in order, into those to mark `sending` and those whose key is held: by `prior(item, key)` (what
    /// the store holds, or nil), or by an earlier item of `items` with the same key (`run`'s own, at `now`). Items that
    /// claim nothing are always marked. Every store's claim goes through here, so they decide alike.
    package func partition<E: Error>(
        _ items: [LedgerItem], run: String, now: Double,
        prior: (LedgerItem, String) throws(E) -> PriorSend?
    ) throws(E)
        -> (marked: [LedgerItem], held: [LedgerKey: PriorSend])
    {
        var held: [LedgerKey: PriorSend] = [:]
        var claimed: [String: LedgerItem] = [:]
        var marked: [LedgerItem] = []
        marked.reserveCapacity(items.count)
        for item in items {
            if item.claimsKey, let key = item.idempotencyKey {
                if let earlier = claimed[key] {
                    held[item.key] = PriorSend(
                        runId: run, at: now, state: .sending, origin: earlier.origin, sameRun: true)
                    continue
                }
                if let found = try prior(item, key), isHeld(by: found) {
                    held[item.key] = found
                    continue
                }
                claimed[key] = item
            }
            marked.append(item)
        }
        return (marked, held)
    }
}
