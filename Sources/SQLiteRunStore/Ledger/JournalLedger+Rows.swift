import Foundation
import PipelineCore
import RunStore
import Synchronization

/// How the ledger writes rows of `items`: many rows per statement, each item's values in their stored forms, and the
/// step ids they need in `steps`.
extension JournalLedger {
    /// Writes `rows` in one transaction, up to `LedgerSQL.rowsPerStatement` per statement.
    ///
    /// `sql[n]` is the statement for n rows; `bindRow` binds one row's parameters from its first index.
    func write<Row: LedgerRow>(
        _ rows: [Row], sql: [String], perRow: Int32,
        bindRow: @Sendable (Row, SQLiteStatement, Int32) throws(RunStoreError) -> Void
    ) async throws(LedgerError) {
        guard !rows.isEmpty else { return }
        let now = Self.now()
        try await ledgerCall { () throws(RunStoreError) in
            try await journal.withConnection { (connection) throws(RunStoreError) in
                let seq = try runSeq(connection)
                try transaction(connection) { () throws(RunStoreError) in
                    try insert(
                        rows, connection: connection, seq: seq, now: now, sql: sql, perRow: perRow, bindRow: bindRow)
                }
            }
        }
    }

    /// Writes `rows` inside the caller's transaction, up to `LedgerSQL.rowsPerStatement` per statement.
    func insert<Row: LedgerRow>(
        _ rows: [Row], connection: SQLiteConnection, seq: Int64, now: Double, sql: [String], perRow: Int32,
        bindRow: (Row, SQLiteStatement, Int32) throws(RunStoreError) -> Void
    ) throws(RunStoreError) {
        try recordSteps(rows, connection: connection, seq: seq)
        var start = rows.startIndex
        while start < rows.endIndex {
            let end = min(start + LedgerSQL.rowsPerStatement, rows.endIndex)
            try connection.execute(sql[end - start]) { (statement) throws(RunStoreError) in
                try statement.bind(1, seq)
                try statement.bind(2, now)
                var first: Int32 = 3
                for row in rows[start..<end] {
                    try bindRow(row, statement, first)
                    first += perRow
                }
            }
            start = end
        }
    }

    /// Binds step, row, origin, digest, idempotency key and target from parameter `first`.
    func bindItem(_ item: LedgerItem, to statement: SQLiteStatement, at first: Int32) throws(RunStoreError) {
        try statement.bind(first, Int64(item.key.step))
        try statement.bind(first + 1, Int64(item.key.row))
        switch try statement.connection.originFiles.stored(item.origin, row: item.key.row, statement.connection) {
        case .distance(let value): try statement.bind(first + 2, value)
        case .code(let bytes): try statement.bind(first + 2, bytes: bytes)
        case .text: try statement.bind(first + 2, item.origin)
        }
        try statement.bindDigest(first + 3, item.digest)
        try statement.bindCompact(first + 4, item.idempotencyKey, key: true)
        try statement.bindTarget(first + 5, item.target)
    }

    /// Records the step ids of `rows`' steps in `steps`, once per step: the ledger remembers which it wrote (and forgets
    /// them all when a transaction rolls back, `transaction(_:_:)`).
    func recordSteps<Row: LedgerRow>(_ rows: [Row], connection: SQLiteConnection, seq: Int64) throws(RunStoreError) {
        var last: Int?
        for row in rows {
            let item = row.ledgerItem
            // A batch is nearly always of one step: ask the set once per change of step, not once per row.
            guard item.key.step != last else { continue }
            last = item.key.step
            guard !recordedSteps.withLock({ $0.contains(item.key.step) }) else { continue }
            try connection.execute(LedgerSQL.insertStep) { (statement) throws(RunStoreError) in
                try statement.bind(1, seq)
                try statement.bind(2, Int64(item.key.step))
                try statement.bind(3, item.stepId)
            }
            recordedSteps.withLock { _ = $0.insert(item.key.step) }
        }
    }

    /// The time items are stamped with: whole seconds, which SQLite keeps in 4 bytes rather than a REAL's 8 (dedupe
    /// windows and retention are minutes to days). Rounded up, never down: a lookup keeps what was recorded at or after
    /// the start of its window, so a time recorded earlier than it was could let a send fall out of its window too soon.
    static func now() -> Double {
        Date().timeIntervalSince1970.rounded(.up)
    }
}

/// What the ledger writes a row of `items` from: an item to mark, or an outcome to record.
protocol LedgerRow: Sendable {
    var ledgerItem: LedgerItem { get }
}

extension LedgerItem: LedgerRow {
    var ledgerItem: LedgerItem { self }
}

extension LedgerOutcome: LedgerRow {
    var ledgerItem: LedgerItem { item }
}
