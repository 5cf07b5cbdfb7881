import PipelineCore

/// A run's ledger seen by a dry run of the start that would resume it: everything that run recorded can be read (its
/// items, the steps it completed, the rows it spooled), so the dry run shows what the resume would send and skip;
/// every write throws, so a dry run can never change the run it previews.
package final class ReadOnlyLedger: ItemLedger {
    private let base: any ItemLedger

    /// A view of `base` that cannot write.
    package init(_ base: any ItemLedger) {
        self.base = base
    }

    package var isWritable: Bool { false }
    package var rowSpool: (any RowSpool)? { base.rowSpool }

    package func entry(_ key: LedgerKey) async throws(LedgerError) -> LedgerEntry? { try await base.entry(key) }
    package func completedStep(_ step: Int) async throws(LedgerError) -> CompletedStep? {
        try await base.completedStep(step)
    }
    package func priorSend(key: String, since: Double, excluding: LedgerKey) async throws(LedgerError) -> PriorSend? {
        try await base.priorSend(key: key, since: since, excluding: excluding)
    }
    package func notificationIds(step: Int, sample size: Int) async throws(LedgerError) -> NotificationSample? {
        try await base.notificationIds(step: step, sample: size)
    }
    package func priorSends(_ asks: [PriorAsk], since: Double) async throws(LedgerError) -> [LedgerKey: PriorSend] {
        try await base.priorSends(asks, since: since)
    }

    package func markSending(_ items: [LedgerItem]) async throws(LedgerError) { throw Self.refused }
    package func markSending(_ items: [LedgerItem], claim: KeyClaim) async throws(LedgerError) -> [LedgerKey: PriorSend]
    { throw Self.refused }
    package func record(_ outcomes: [LedgerOutcome], skips: [SkipRange]) async throws(LedgerError) {
        throw Self.refused
    }
    package func markSending(_ item: LedgerItem, creating id: String) async throws(LedgerError) { throw Self.refused }
    package func assignId(_ id: String, to key: LedgerKey) async throws(LedgerError) { throw Self.refused }
    package func recordCompleted(_ step: CompletedStep) async throws(LedgerError) { throw Self.refused }

    private static let refused = LedgerError("a dry run does not write the run journal")
}
