import PipelineCore
import RunStore
import Synchronization

/// A run journal's ledger in memory, with the same rules as the SQLite one (an id is assigned only to an item being
/// sent; a key this run or another sent within the window is found), and switches for the failures a test needs.
package final class MemoryLedger: ItemLedger {
    package let entries = Mutex<[LedgerKey: LedgerEntry]>([:])
    package let failWrites = Atomic<Bool>(false)
    /// Only `assignId` fails (an id that cannot be journalled), while outcomes still record.
    package let failAssign = Atomic<Bool>(false)
    package let sendingMarks = Atomic<Int>(0)
    /// The number of items each `markSending` call marked, in call order.
    package let markCalls = Mutex<[Int]>([])
    /// This run's items' idempotency keys.
    package let keys = Mutex<[LedgerKey: String]>([:])
    /// What other runs of the pipeline sent, by idempotency key.
    package let otherRuns = Mutex<[String: PriorSend]>([:])
    package let isWritable = true

    /// An empty ledger.
    package init() {}

    /// Lookups of one key, and the sizes of lookups of several (`priorSends`), in call order.
    package let singleLookups = Atomic<Int>(0)
    package let batchLookups = Mutex<[Int]>([])
    /// Runs after each `priorSends`: what another run does between a batch's lookup and its marks.
    package let afterBatchLookup = Mutex<(@Sendable () -> Void)?>(nil)

    package func priorSend(key: String, since: Double, excluding: LedgerKey) throws(LedgerError) -> PriorSend? {
        singleLookups.add(1, ordering: .relaxed)
        return lookup(key: key, since: since, excluding: excluding)
    }

    package func priorSends(_ asks: [PriorAsk], since: Double) throws(LedgerError) -> [LedgerKey: PriorSend] {
        batchLookups.withLock { $0.append(asks.count) }
        var found: [LedgerKey: PriorSend] = [:]
        for ask in asks { found[ask.item] = lookup(key: ask.key, since: since, excluding: ask.item) }
        afterBatchLookup.withLock { $0 }?()
        return found
    }

    private func lookup(key: String, since: Double, excluding: LedgerKey) -> PriorSend? {
        let mine = keys.withLock { $0 }.filter { $0.value == key && $0.key != excluding }.keys.sorted()
        for itemKey in mine {
            if let entry = entries.withLock({ $0[itemKey] }), [.accepted, .sending, .unknown].contains(entry.state) {
                return PriorSend(
                    runId: "this", at: since, state: entry.state, origin: "row \(itemKey.row)", sameRun: true)
            }
        }
        return otherRuns.withLock { $0[key] }.flatMap { $0.at >= since ? $0 : nil }
    }

    package func entry(_ key: LedgerKey) throws(LedgerError) -> LedgerEntry? { entries.withLock { $0[key] } }

    package func markSending(_ items: [LedgerItem]) throws(LedgerError) {
        if failWrites.load(ordering: .relaxed) { throw LedgerError("disk full") }
        sendingMarks.add(items.count, ordering: .relaxed)
        markCalls.withLock { $0.append(items.count) }
        entries.withLock { entries in
            for item in items {
                if let key = item.idempotencyKey { keys.withLock { $0[item.key] = key } }
                let attempts = (entries[item.key]?.attempts ?? 0) + 1
                entries[item.key] = LedgerEntry(key: item.key, digest: item.digest, state: .sending, attempts: attempts)
            }
        }
    }

    /// Skip ranges as written, the latest version of each (by step and first row).
    package let skips = Mutex<[SkipRange]>([])

    package func record(_ outcomes: [LedgerOutcome], skips written: [SkipRange]) throws(LedgerError) {
        if failWrites.load(ordering: .relaxed) { throw LedgerError("disk full") }
        skips.withLock { skips in
            for skip in written {
                skips.removeAll { $0.step == skip.step && $0.rows.overlaps(skip.rows) }
                skips.append(skip)
            }
        }
        entries.withLock { entries in
            for outcome in outcomes {
                if let key = outcome.item.idempotencyKey { keys.withLock { $0[outcome.item.key] = key } }
                let attempts = entries[outcome.item.key]?.attempts ?? 0
                entries[outcome.item.key] = LedgerEntry(
                    key: outcome.item.key, digest: outcome.item.digest, state: outcome.state,
                    attempts: attempts, notificationId: outcome.notificationId,
                    error: outcome.error, retriable: outcome.retriable)
            }
        }
    }

    /// The group commit (counted from 1) that fails, writing nothing; 0 for none.
    package let failCommit = Atomic<Int>(0)
    /// What each group commit (`commit(recording:skips:marking:claim:)`) carried, in call order.
    package let commits = Mutex<[GroupCommit]>([])

    /// The outcomes a group commit recorded and the items it asked to mark.
    package struct GroupCommit: Sendable, Equatable {
        package var recorded: Int
        package var marked: Int

        package init(recorded: Int, marked: Int) {
            self.recorded = recorded
            self.marked = marked
        }
    }

    package func commit(
        recording outcomes: [LedgerOutcome], skips: [SkipRange], marking items: [LedgerItem], claim: KeyClaim
    ) async throws(LedgerError) -> [LedgerKey: PriorSend] {
        if failWrites.load(ordering: .relaxed) { throw LedgerError("disk full") }
        let number = commits.withLock { commits in
            commits.append(GroupCommit(recorded: outcomes.count, marked: items.count))
            return commits.count
        }
        // Nothing of a failed transaction is written.
        if failCommit.load(ordering: .relaxed) == number { throw LedgerError("database is locked") }
        if !outcomes.isEmpty || !skips.isEmpty { try record(outcomes, skips: skips) }
        return try await markSending(items, claim: claim)
    }

    package func markSending(_ item: LedgerItem, creating id: String) throws(LedgerError) {
        try markSending([item])
        try assignId(id, to: item.key)
    }

    package func assignId(_ id: String, to key: LedgerKey) throws(LedgerError) {
        if failWrites.load(ordering: .relaxed) || failAssign.load(ordering: .relaxed) { throw LedgerError("disk full") }
        try entries.withLock { (entries) throws(LedgerError) in
            guard entries[key]?.state == .sending else { throw LedgerError("item \(key.row) is not sending") }
            entries[key]?.notificationId = id
        }
    }

    /// The state of `row` of `step`.
    package func state(_ row: Int, step: Int = 1) -> ItemState? {
        entries.withLock { $0[LedgerKey(step: step, row: row)]?.state }
    }

    /// The entry of `row` of step 1.
    package subscript(row: Int) -> LedgerEntry? { entries.withLock { $0[LedgerKey(step: 1, row: row)] } }
}
