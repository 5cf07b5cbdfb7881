import Foundation
import Logging
import PipelineCore
import PostgresNIO
import RunStore
import Synchronization

/// The PostgreSQL store's `ItemLedger` for one run: what a batch send consults and writes for every item.
///
/// Each write is one transaction, committed before the method returns. When the run holds a lock of this
/// store, every write first checks the lock's epoch in the same transaction: a process that lost its lock
/// (its connection dropped and another process took over) is refused instead of writing beside the new
/// holder, so its run stops rather than send without a record.
final class PostgresLedger: ItemLedger {
    let store: PostgresStore
    /// The run items are recorded under; nil for a read-only view (a dry run's).
    let run: String?
    private let runKey = Mutex<Int?>(nil)
    let fence: PostgresRunLock.Fence?

    /// The most rows one statement carries: far below PostgreSQL's 65,535 parameters, large enough that a
    /// batch is one statement.
    static let rowsPerStatement = 256

    /// The run as the store started it (its identity, generation and pipeline name a spool is filed under); nil for
    /// a read-only view, which keeps no rows.
    let record: RunRecord?

    init(store: PostgresStore, run: String?, fence: PostgresRunLock.Fence?, record: RunRecord? = nil) {
        self.store = store
        self.run = run
        self.fence = fence
        self.record = record
    }

    var isWritable: Bool { run != nil }

    func entry(_ key: LedgerKey) async throws(LedgerError) -> LedgerEntry? {
        try await ledgerCall {
            try await self.store.withConnection("reading an item") { connection in
                let seq = try await self.runSeq(connection)
                let rows = try await connection.query(
                    """
                    SELECT digest, state, attempts, notification_id, error, retriable FROM pushline.items
                    WHERE run = \(seq) AND step = \(key.step) AND "row" = \(key.row)
                    """, logger: self.store.logger)
                var found: LedgerEntry?
                for try await row in rows {
                    let (digest, state, attempts, notificationId, error, retriable) =
                        try row.decode((String, String, Int, String?, String?, Bool).self)
                    found = LedgerEntry(
                        key: key, digest: StoredText.decode(digest), state: try PostgresRows.itemState(state),
                        attempts: attempts, notificationId: StoredText.decode(notificationId),
                        error: StoredText.decode(error), retriable: retriable)
                }
                return found
            }
        }
    }

    func markSending(_ items: [LedgerItem]) async throws(LedgerError) {
        guard !items.isEmpty else { return }
        try await write("marking items sending") { connection, seq, now in
            for chunk in Self.chunks(items, key: \.key) {
                try await connection.perform(
                    MarkSending(seq: seq, now: now, items: ItemRows(chunk)), logger: self.store.logger)
            }
        }
    }

    func record(_ outcomes: [LedgerOutcome], skips: [SkipRange]) async throws(LedgerError) {
        guard !outcomes.isEmpty || !skips.isEmpty else { return }
        try await write("recording outcomes") { connection, seq, now in
            try await self.record(outcomes, skips: skips, connection: connection, seq: seq, now: now)
        }
    }

    /// The writes of `record(_:skips:)`, inside the caller's transaction.
    func record(
        _ outcomes: [LedgerOutcome], skips: [SkipRange], connection: PostgresConnection, seq: Int, now: Double
    ) async throws {
        for chunk in Self.chunks(outcomes, key: \.item.key) {
            try await connection.perform(
                Record(seq: seq, now: now, outcomes: ItemRows(chunk)), logger: store.logger)
        }
        for skip in skips {
            try await Self.write(skip, connection: connection, seq: seq, logger: store.logger)
        }
    }

    /// Writes a skip range in place of the run's ranges it overlaps: itself, written shorter at an earlier flush.
    private static func write(_ skip: SkipRange, connection: PostgresConnection, seq: Int, logger: Logger) async throws
    {
        try await connection.query(
            """
            DELETE FROM pushline.skips
            WHERE run = \(seq) AND step = \(skip.step) AND first_row <= \(skip.rows.upperBound) AND last_row >= \(skip.rows.lowerBound)
            """, logger: logger)
        try await connection.query(
            """
            INSERT INTO pushline.skips (run, step, first_row, last_row, step_id, origin, first_line, prior_run, prior_step, prior_first_row)
            VALUES (\(seq), \(skip.step), \(skip.rows.lowerBound), \(skip.rows.upperBound), \(StoredText.encode(skip.stepId)),
                    \(StoredText.encode(skip.originFile)), \(skip.firstLine), \(skip.priorRun), \(skip.prior.step), \(skip.prior.row))
            """, logger: logger)
    }

    func markSending(_ item: LedgerItem, creating id: String) async throws(LedgerError) {
        try await write("marking an item sending") { connection, seq, now in
            try await connection.perform(
                MarkSending(seq: seq, now: now, items: ItemRows([item])), logger: self.store.logger)
            try await connection.query(
                """
                UPDATE pushline.items SET notification_id = \(StoredText.encode(id)), updated_at = \(now)
                WHERE run = \(seq) AND step = \(item.key.step) AND "row" = \(item.key.row) AND state = 'sending'
                """, logger: self.store.logger)
        }
    }

    func assignId(_ id: String, to key: LedgerKey) async throws(LedgerError) {
        let changed = MutexBox(0)
        try await write("recording an id") { connection, seq, now in
            let rows = try await connection.query(
                """
                UPDATE pushline.items SET notification_id = \(StoredText.encode(id)), updated_at = \(now)
                WHERE run = \(seq) AND step = \(key.step) AND "row" = \(key.row) AND state = 'sending' RETURNING 1
                """, logger: self.store.logger)
            for try await _ in rows { changed.add(1) }
        }
        guard changed.value == 1 else {
            throw LedgerError(
                "item \(key.step):\(key.row) is not being sent in the run store, so its id cannot be recorded")
        }
    }

    /// `rows` in statement-sized chunks, in order. A key already in a chunk starts the next one: PostgreSQL's
    /// upsert refuses to touch one row twice in a statement, and a repeated key must behave as two writes in
    /// order (as it does in the SQLite journal).
    static func chunks<Row>(_ rows: [Row], key: (Row) -> LedgerKey) -> [ArraySlice<Row>] {
        var chunks: [ArraySlice<Row>] = []
        var start = rows.startIndex
        var seen: Set<LedgerKey> = []
        for index in rows.indices {
            let rowKey = key(rows[index])
            if index - start == rowsPerStatement || seen.contains(rowKey) {
                chunks.append(rows[start..<index])
                start = index
                seen = []
            }
            seen.insert(rowKey)
        }
        if start < rows.endIndex { chunks.append(rows[start...]) }
        return chunks
    }

    /// One fenced write transaction: the lock's epoch is checked first, under a share lock on its row, so a
    /// holder that was taken over cannot commit after the new holder started. A body that checks it itself (a claim
    /// does, with its keys' locks, in one round trip: `claim`) says `checkingFence: false`.
    func write(
        _ doing: String, checkingFence: Bool = true,
        _ body: @escaping @Sendable (PostgresConnection, Int, Double) async throws -> Void
    ) async throws(LedgerError) {
        let now = Date().timeIntervalSince1970
        let fence = fence
        try await ledgerCall {
            try await self.store.transaction(doing) { connection in
                let seq = try await self.runSeq(connection)
                if checkingFence { try await self.store.checkFence(fence, connection) }
                try await body(connection, seq, now)
            }
        }
    }

    /// The run's integer key, looked up once (runs are never renumbered).
    func runSeq(_ connection: PostgresConnection) async throws -> Int {
        if let known = runKey.withLock({ $0 }) { return known }
        guard let run else {
            throw RunStoreError(
                "this view of the run store at \(store.location) is read-only (a dry run writes nothing)")
        }
        var found: Int?
        for try await row in try await connection.query(
            "SELECT seq FROM pushline.runs WHERE id = \(run)", logger: store.logger)
        {
            found = try row.decode(Int.self)
        }
        guard let found else { throw RunStoreError("there is no run \(run) in the run store at \(store.location)") }
        runKey.withLock { $0 = found }
        return found
    }

    /// Turns the store's error into the ledger's, keeping the message.
    func ledgerCall<T>(_ body: () async throws -> T) async throws(LedgerError) -> T {
        do {
            return try await body()
        } catch {
            let failure = PostgresFailure.storeError(
                error, location: store.location, doing: "writing the ledger", pauses: store.pauses)
            throw LedgerError(failure.message, hint: failure.hint)
        }
    }
}

/// A counter a `@Sendable` closure can add to.
final class MutexBox: Sendable {
    private let count: Mutex<Int>
    init(_ value: Int) { count = Mutex(value) }
    func add(_ amount: Int) { count.withLock { $0 += amount } }
    var value: Int { count.withLock { $0 } }
}
