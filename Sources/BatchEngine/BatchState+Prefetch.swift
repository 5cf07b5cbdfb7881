import Foundation
import PipelineCore
import RunStore

/// Asking the journal about the next rows' keys together. A re-run of a fixed input spends most of its time on rows it
/// skips, and one read for a few dozen keys costs little more than one for a single key.
extension BatchState {
    /// Looks up the prior sends of those of `items` that claim their key when marked (`claimsKey`), keeping each answer
    /// for its row's admission. Only those: the claim checks the key again as the row is marked, so an answer that went
    /// stale meanwhile (another run marked the key since) is still caught. A lookup that fails is left to each row's
    /// own, which reports it. Not with `--again` or `--resend-unknown`: those admit a row whose prior another run
    /// holds, and only a fresh lookup sees that an earlier row of this run has since taken the key (and counts the
    /// resend once).
    mutating func prefetch(_ items: ArraySlice<BatchItem>) async {
        prefetched.removeAll(keepingCapacity: true)
        guard runner.dedupeWindow > 0, !runner.control.again, !runner.control.resendUnknown,
            let lookup = runner.control.ledger
        else { return }
        let shard = runner.control.shard
        let asks = items.compactMap { item -> PriorAsk? in
            guard claimsKey(item), let key = item.key else { return nil }
            if let shard, !shard.owns(item.shardKey ?? key) { return nil }
            return PriorAsk(key: key, item: LedgerKey(step: runner.stepIndex, row: item.row))
        }
        guard asks.count > 1 else { return }
        let since = runner.clock.now().timeIntervalSince1970 - runner.dedupeWindow
        guard let found = try? await lookup.priorSends(asks, since: since) else { return }
        for ask in asks { prefetched[ask.item.row] = .some(found[ask.item]) }
    }

    /// The prefetched answer for `item`'s key, taken (so a row admitted again later asks afresh); nil when none was kept.
    mutating func takePrefetched(_ item: BatchItem) -> PriorSend?? {
        prefetched.removeValue(forKey: item.row)
    }
}
