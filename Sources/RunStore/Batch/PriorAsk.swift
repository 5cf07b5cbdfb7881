import PipelineCore

/// One item asking for its key's prior send (`ItemLedger.priorSends`).
package struct PriorAsk: Sendable, Equatable {
    /// The idempotency key.
    package var key: String
    /// The item asking, never its own prior.
    package var item: LedgerKey

    /// Creates an ask.
    package init(key: String, item: LedgerKey) {
        self.key = key
        self.item = item
    }

    /// This item's prior among `candidates` (items with its key, recent enough, accepted, sending or unknown), as
    /// `priorSend` chooses: never the item itself; this run's own first, then an accepted one, then the newest, then the
    /// last by step and row (items recorded in one transaction share their time).
    package func best(among candidates: [PriorSend]) -> PriorSend? {
        func rank(_ prior: PriorSend) -> (Int, Int, Double, Int, Int) {
            (
                prior.sameRun ? 1 : 0, prior.state == .accepted ? 1 : 0, prior.at, prior.key?.step ?? 0,
                prior.key?.row ?? 0
            )
        }
        return candidates.filter { !($0.sameRun && $0.key == item) }.max { rank($0) < rank($1) }
    }
}
