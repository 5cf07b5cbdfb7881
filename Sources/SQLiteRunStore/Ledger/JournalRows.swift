import Foundation
import PipelineCore
import RunStore

/// Reading the journal's rows into values: items (`JournalItem`) and the rows runs skipped as already sent
/// (`SkipRange`, kept as ranges). The store, its ledger and its searches all read rows through these.
enum JournalRows {
    static let skipColumns =
        "step, first_row, last_row, step_id, origin, first_line, prior_run, prior_step, prior_first_row"

    /// The skip ranges of the run with id `run`, by step and first row.
    static func skips(run: String, _ connection: SQLiteConnection) throws(RunStoreError) -> [SkipRange] {
        var skips: [SkipRange] = []
        try connection.query(
            """
            SELECT \(skipColumns) FROM skips WHERE run = (SELECT seq FROM runs WHERE id = ?1) ORDER BY step, first_row
            """, bind: { (statement) throws(RunStoreError) in try statement.bind(1, run) }
        ) { (row) throws(RunStoreError) in
            skips.append(skip(row))
        }
        return skips
    }

    /// The rows of other runs skipped because `prior` (an accepted item of run `priorRun`) had sent them, newest run
    /// first, as `runs find` lists them; only runs of `pipeline` and started since `since`, when given.
    static func skipped(
        as prior: JournalItem, of priorRun: String, pipeline: String?, since: Double?,
        _ connection: SQLiteConnection
    ) throws(RunStoreError) -> [FoundItem] {
        var found: [FoundItem] = []
        try connection.query(
            """
            SELECT r.id, r.pipeline, r.started_at, \(skipColumns.split(separator: ",").map { "s." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
            FROM skips AS s JOIN runs AS r ON r.seq = s.run
            WHERE s.prior_run = ?1 AND s.prior_step = ?2 AND s.prior_first_row <= ?3 AND s.prior_first_row + (s.last_row - s.first_row) >= ?3
                AND (?4 IS NULL OR r.pipeline = ?4) AND r.started_at >= ?5
            ORDER BY r.started_at DESC
            """,
            bind: { (statement) throws(RunStoreError) in
                try statement.bind(1, priorRun)
                try statement.bind(2, Int64(prior.key.step))
                try statement.bind(3, Int64(prior.key.row))
                try statement.bind(4, pipeline)
                try statement.bind(5, since ?? -Double.greatestFiniteMagnitude)
            }
        ) { (row) throws(RunStoreError) in
            let range = skip(row, from: 3)
            guard let skippedRow = range.row(sentAs: prior.key) else { return }
            found.append(
                range.found(
                    row: skippedRow, runId: row.text(0) ?? "", pipeline: row.text(1) ?? "", startedAt: row.double(2),
                    prior: prior))
        }
        return found
    }

    private static func skip(_ row: SQLiteStatement, from first: Int32 = 0) -> SkipRange {
        SkipRange(
            step: row.int(first), stepId: row.text(first + 3) ?? "",
            rows: row.int(first + 1)...max(row.int(first + 1), row.int(first + 2)),
            originFile: row.text(first + 4) ?? "", firstLine: row.isNull(first + 5) ? nil : row.int(first + 5),
            priorRun: row.text(first + 6) ?? "", prior: LedgerKey(step: row.int(first + 7), row: row.int(first + 8)))
    }

    /// The columns `item(_:_:)` reads, in its order, of the items table named `table` in the query.
    static func itemColumns(_ table: String) -> String {
        [
            "step", "row", stepId(table), "origin", "digest", "state", "attempts", "notification_id", "error",
            "retriable", "updated_at",
            "idempotency_key", "target", "resolution",
        ].map { $0.hasPrefix("(") ? $0 : "\(table).\($0)" }.joined(separator: ", ")
    }

    /// The step id of an item of the items table named `table` in the query (`steps` keeps it once per run and step).
    static func stepId(_ table: String) -> String {
        "(SELECT s.step_id FROM steps AS s WHERE s.run = \(table).run AND s.step = \(table).step)"
    }

    /// An item from a row of `itemColumns`.
    static func item(_ row: SQLiteStatement, _ connection: SQLiteConnection, from first: Int32 = 0)
        throws(RunStoreError) -> JournalItem
    {
        JournalItem(
            key: LedgerKey(step: row.int(first), row: row.int(first + 1)), stepId: row.text(first + 2) ?? "",
            origin: try connection.originFiles.origin(row, first + 3, row: row.int(first + 1), connection),
            digest: row.compactText(first + 4) ?? "",
            state: try itemState(row, first + 5, connection), attempts: row.int(first + 6),
            notificationId: row.compactText(first + 7),
            error: row.text(first + 8), retriable: row.int64(first + 9) != 0, updatedAt: row.double(first + 10),
            idempotencyKey: row.compactText(first + 11),
            target: row.target(first + 12), resolution: row.text(first + 13))
    }

    /// Reads an item state, failing clearly (never trapping) on a code this build does not know.
    static func itemState(_ row: SQLiteStatement, _ column: Int32, _ connection: SQLiteConnection) throws(RunStoreError)
        -> ItemState
    {
        guard !row.isNull(column), let state = StoredState.state(row.int64(column)) else {
            throw RunStoreError(
                "an item has an unknown state '\(row.text(column) ?? "")' in the run journal at \(connection.path)")
        }
        return state
    }
}
