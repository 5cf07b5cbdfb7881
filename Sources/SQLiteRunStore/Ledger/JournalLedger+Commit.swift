import PipelineCore
import RunStore

/// A batch's group commit on the journal.
extension JournalLedger {
    /// Records outcomes and skip ranges, then claims and marks the next items, in one `BEGIN IMMEDIATE` transaction:
    /// the pages the group's rows share are written to the WAL once for all of them, where a transaction each wrote
    /// them again and again.
    package func commit(
        recording outcomes: [LedgerOutcome], skips: [SkipRange], marking items: [LedgerItem], claim: KeyClaim
    ) async throws(LedgerError) -> [LedgerKey: PriorSend] {
        guard !outcomes.isEmpty || !skips.isEmpty || !items.isEmpty else { return [:] }
        let now = Self.now()
        return try await ledgerCall { () throws(RunStoreError) -> [LedgerKey: PriorSend] in
            try await journal.withConnection { (connection) throws(RunStoreError) -> [LedgerKey: PriorSend] in
                let seq = try runSeq(connection)
                return try transaction(connection) { () throws(RunStoreError) -> [LedgerKey: PriorSend] in
                    try record(outcomes, skips: skips, connection: connection, seq: seq, now: now)
                    return try mark(items, claim: claim, connection: connection, seq: seq, now: now)
                }
            }
        }
    }
}
