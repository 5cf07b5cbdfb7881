import Foundation
import PipelineCore
import RunStore
import Synchronization

/// The journal's `ItemLedger` for one run: what a batch send consults and writes for every item.
///
/// Each method is one transaction on the journal's connection and is durable against a killed process
/// when it returns. Errors become `LedgerError`s with the journal's message, so the run stops rather
/// than send without a record.
package final class JournalLedger: ItemLedger {
    /// The journal it writes to.
    package let journal: Journal
    /// The run id items are recorded under; nil for a read-only view (a dry run's).
    package let run: String?
    /// The run's integer key in the items table, looked up on first use (runs are never renumbered).
    private let runKey = Mutex<Int64?>(nil)
    /// Ids of runs by seq, as `priorSends` found them.
    let runIds = Mutex<[Int64: String]>([:])
    /// The steps whose id this ledger recorded in `steps` (`recordSteps`).
    let recordedSteps = Mutex<Set<Int>>([])

    /// The run as the store started it (its identity, generation and pipeline name a spool is filed under); nil for
    /// a ledger made from an id alone, which keeps no rows.
    let record: RunRecord?

    init(journal: Journal, run: String?, record: RunRecord? = nil) {
        self.journal = journal
        self.run = run
        self.record = record
    }

    /// False for a read-only view: every write throws.
    package var isWritable: Bool { run != nil }

    /// A ledger for a started run keeps rows; a read-only view or one made from an id alone does not.
    package var rowSpool: (any RowSpool)? {
        guard let record, run != nil else { return nil }
        return JournalSpool(ledger: self, record: record)
    }

    /// What an earlier attempt of this run recorded for the item; nil when the run never reached it.
    ///
    /// A point lookup on the primary key through a cached statement: a resume calls it once per row.
    /// Throws if the journal has no run with this ledger's id.
    package func entry(_ key: LedgerKey) async throws(LedgerError) -> LedgerEntry? {
        try await ledgerCall { () throws(RunStoreError) -> LedgerEntry? in
            try await journal.withConnection { (connection) throws(RunStoreError) -> LedgerEntry? in
                let seq = try runSeq(connection)
                var found: LedgerEntry?
                try connection.query(
                    LedgerSQL.entry,
                    bind: { (statement) throws(RunStoreError) in
                        try statement.bind(1, seq)
                        try statement.bind(2, Int64(key.step))
                        try statement.bind(3, Int64(key.row))
                    }
                ) { (row) throws(RunStoreError) in
                    found = LedgerEntry(
                        key: key, digest: row.compactText(0) ?? "",
                        state: try JournalRows.itemState(row, 1, connection),
                        attempts: row.int(2), notificationId: row.compactText(3), error: row.text(4),
                        retriable: row.int64(5) != 0)
                }
                return found
            }
        }
    }

    /// Marks items `sending` and counts an attempt (1 for a new item), in one transaction.
    ///
    /// The previous attempt's notification id and error are cleared: while an item is `sending`, its
    /// fate is unknown, and its outcome will be recorded afresh.
    package func markSending(_ items: [LedgerItem]) async throws(LedgerError) {
        try await write(items, sql: LedgerSQL.markSending, perRow: LedgerSQL.markSendingParametersPerRow) {
            (item, statement, first) throws(RunStoreError) in
            try bindItem(item, to: statement, at: first)
        }
    }

    /// Marks items `sending`, first checking in the same transaction each item that claims its key. SQLite's
    /// `BEGIN IMMEDIATE` holds the file's write lock for the whole transaction, so a second process claiming the same
    /// key waits, then sees this one's mark.
    package func markSending(_ items: [LedgerItem], claim: KeyClaim) async throws(LedgerError) -> [LedgerKey: PriorSend]
    {
        guard !items.isEmpty else { return [:] }
        let now = Self.now()
        return try await ledgerCall { () throws(RunStoreError) -> [LedgerKey: PriorSend] in
            try await journal.withConnection { (connection) throws(RunStoreError) -> [LedgerKey: PriorSend] in
                let seq = try runSeq(connection)
                return try transaction(connection) { () throws(RunStoreError) -> [LedgerKey: PriorSend] in
                    try mark(items, claim: claim, connection: connection, seq: seq, now: now)
                }
            }
        }
    }

    /// The claims and marks of `markSending(_:claim:)`, inside the caller's transaction.
    func mark(_ items: [LedgerItem], claim: KeyClaim, connection: SQLiteConnection, seq: Int64, now: Double)
        throws(RunStoreError) -> [LedgerKey: PriorSend]
    {
        // The claimed keys' priors in one statement for the group (as `priorSends` asks them), not one per item: the
        // lookup runs inside this write transaction, so it sees every run's marks committed before it.
        let asks = items.compactMap { item in
            item.claimsKey ? item.idempotencyKey.map { PriorAsk(key: $0, item: item.key) } : nil
        }
        let priors = try self.priors(asks, since: claim.since, seq: seq, connection: connection)
        let (marked, held) = claim.partition(items, run: run ?? "", now: now) { item, _ in priors[item.key] }
        try insert(
            marked, connection: connection, seq: seq, now: now, sql: LedgerSQL.markSending,
            perRow: LedgerSQL.markSendingParametersPerRow
        ) { (item, statement, first) throws(RunStoreError) in
            try bindItem(item, to: statement, at: first)
        }
        return held
    }

    /// Records outcomes and skip ranges in one transaction; an item never marked `sending` is inserted with 0
    /// attempts. The state is stored as given (normally `accepted`, `failed` or `unknown`). A skip range replaces the
    /// run's ranges it overlaps (the same range, shorter, written before).
    package func record(_ outcomes: [LedgerOutcome], skips: [SkipRange]) async throws(LedgerError) {
        guard !outcomes.isEmpty || !skips.isEmpty else { return }
        let now = Self.now()
        try await ledgerCall { () throws(RunStoreError) in
            try await journal.withConnection { (connection) throws(RunStoreError) in
                let seq = try runSeq(connection)
                try transaction(connection) { () throws(RunStoreError) in
                    try record(outcomes, skips: skips, connection: connection, seq: seq, now: now)
                }
            }
        }
    }

    /// The writes of `record(_:skips:)`, inside the caller's transaction.
    func record(
        _ outcomes: [LedgerOutcome], skips: [SkipRange], connection: SQLiteConnection, seq: Int64, now: Double
    ) throws(RunStoreError) {
        try insert(
            outcomes, connection: connection, seq: seq, now: now, sql: LedgerSQL.record,
            perRow: LedgerSQL.recordParametersPerRow
        ) { (outcome, statement, first) throws(RunStoreError) in
            try bindItem(outcome.item, to: statement, at: first)
            try statement.bind(first + 6, StoredState.code(outcome.state))
            try statement.bindCompact(first + 7, outcome.notificationId)
            try statement.bind(first + 8, outcome.error)
            try statement.bind(first + 9, Int64(outcome.retriable ? 1 : 0))
        }
        for skip in skips { try Self.write(skip, connection: connection, seq: seq) }
    }

    /// Records outcomes, no skip ranges.
    package func record(_ outcomes: [LedgerOutcome]) async throws(LedgerError) {
        try await record(outcomes, skips: [])
    }

    private static func write(_ skip: SkipRange, connection: SQLiteConnection, seq: Int64) throws(RunStoreError) {
        try connection.execute(LedgerSQL.deleteSkips) { (statement) throws(RunStoreError) in
            try statement.bind(1, seq)
            try statement.bind(2, Int64(skip.step))
            try statement.bind(3, Int64(skip.rows.lowerBound))
            try statement.bind(4, Int64(skip.rows.upperBound))
        }
        try connection.execute(LedgerSQL.insertSkip) { (statement) throws(RunStoreError) in
            try statement.bind(1, seq)
            try statement.bind(2, Int64(skip.step))
            try statement.bind(3, Int64(skip.rows.lowerBound))
            try statement.bind(4, Int64(skip.rows.upperBound))
            try statement.bind(5, skip.stepId)
            try statement.bind(6, skip.originFile)
            try statement.bind(7, skip.firstLine.map(Int64.init))
            try statement.bind(8, skip.priorRun)
            try statement.bind(9, Int64(skip.prior.step))
            try statement.bind(10, Int64(skip.prior.row))
        }
    }

    /// Marks one item `sending` and records the id of what it is creating, in one transaction.
    package func markSending(_ item: LedgerItem, creating id: String) async throws(LedgerError) {
        let now = Self.now()
        try await ledgerCall { () throws(RunStoreError) in
            try await journal.withConnection { (connection) throws(RunStoreError) in
                let seq = try runSeq(connection)
                try transaction(connection) { () throws(RunStoreError) in
                    try recordSteps([item], connection: connection, seq: seq)
                    try connection.execute(LedgerSQL.markSending[1]) { (statement) throws(RunStoreError) in
                        try statement.bind(1, seq)
                        try statement.bind(2, now)
                        try bindItem(item, to: statement, at: 3)
                    }
                    try connection.execute(LedgerSQL.assignId) { (statement) throws(RunStoreError) in
                        try statement.bind(1, seq)
                        try statement.bind(2, now)
                        try statement.bind(3, Int64(item.key.step))
                        try statement.bind(4, Int64(item.key.row))
                        try statement.bindCompact(5, id)
                    }
                }
            }
        }
    }

    /// Records the id of what a `sending` item is creating, in its own transaction.
    ///
    /// Throws when the item is not `sending`: an id with no item could not be found by a resume, and a
    /// settled item's id is history.
    package func assignId(_ id: String, to key: LedgerKey) async throws(LedgerError) {
        let now = Self.now()
        let changed = try await ledgerCall { () throws(RunStoreError) -> Int in
            try await journal.withConnection { (connection) throws(RunStoreError) -> Int in
                let seq = try runSeq(connection)
                return try connection.execute(LedgerSQL.assignId) { (statement) throws(RunStoreError) in
                    try statement.bind(1, seq)
                    try statement.bind(2, now)
                    try statement.bind(3, Int64(key.step))
                    try statement.bind(4, Int64(key.row))
                    try statement.bindCompact(5, id)
                }
            }
        }
        guard changed == 1 else {
            throw LedgerError(
                "item \(key.step):\(key.row) is not being sent in the run journal, so its id cannot be recorded")
        }
    }

    /// The run's integer key; called with the connection held, so two threads cannot both look it up.
    func runSeq(_ connection: SQLiteConnection) throws(RunStoreError) -> Int64 {
        if let known = runKey.withLock({ $0 }) { return known }
        guard let run else {
            throw RunStoreError(
                "this view of the run journal at \(journal.path) is read-only (a dry run writes nothing)")
        }
        var found: Int64?
        try connection.query(
            "SELECT seq FROM runs WHERE id = ?1",
            bind: { (statement) throws(RunStoreError) in
                try statement.bind(1, run)
            }
        ) { (row) throws(RunStoreError) in
            found = row.int64(0)
        }
        guard let found else { throw RunStoreError("there is no run \(run) in the run journal at \(journal.path)") }
        runKey.withLock { $0 = found }
        return found
    }

    /// Turns the journal's error into the ledger's, keeping the message.
    func ledgerCall<T>(_ body: () async throws(RunStoreError) -> T) async throws(LedgerError) -> T {
        do {
            return try await body()
        } catch {
            throw LedgerError(error.message)
        }
    }

    /// A write transaction on `connection` that, when it rolls back, also forgets the steps this ledger recorded
    /// (`recordSteps`): forgotten while the connection is still held, so no other write of this ledger meanwhile takes
    /// a step whose row was rolled back for recorded.
    func transaction<T>(_ connection: SQLiteConnection, _ body: () throws(RunStoreError) -> T) throws(RunStoreError)
        -> T
    {
        do {
            return try connection.transaction(body)
        } catch {
            recordedSteps.withLock { $0.removeAll() }
            throw error
        }
    }
}
