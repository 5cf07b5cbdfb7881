import Foundation
import Logging
import PipelineCore
import PostgresNIO
import RunStore

/// Reading the store's rows into values — items (`JournalItem`) and the rows runs skipped as already sent
/// (`SkipRange`, kept as ranges) — and the SQL fragments and bindings the store's queries share.
enum PostgresRows {
    static let skipColumns =
        "s.step, s.first_row, s.last_row, s.step_id, s.origin, s.first_line, s.prior_run, s.prior_step, s.prior_first_row"

    /// The skip ranges of the run with id `run`, by step and first row.
    static func skips(run: String, _ connection: PostgresConnection, logger: Logger) async throws -> [SkipRange] {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: skipColumns) FROM pushline.skips AS s
            WHERE s.run = (SELECT seq FROM pushline.runs WHERE id = \(run)) ORDER BY s.step, s.first_row
            """, logger: logger)
        var skips: [SkipRange] = []
        for try await row in rows { skips.append(try skip(row)) }
        return skips
    }

    /// The rows of other runs skipped because `prior` (an accepted item of run `priorRun`) had sent them, newest run
    /// first, as `runs find` lists them; only runs of `pipeline` and started since `since`, when given.
    static func skipped(
        as prior: JournalItem, of priorRun: String, pipeline: String?, since: Double?, _ connection: PostgresConnection,
        logger: Logger
    ) async throws -> [FoundItem] {
        let rows = try await connection.query(
            """
            SELECT r.id, r.pipeline, r.started_at, \(unescaped: skipColumns)
            FROM pushline.skips AS s JOIN pushline.runs AS r ON r.seq = s.run
            WHERE s.prior_run = \(priorRun) AND s.prior_step = \(prior.key.step) AND s.prior_first_row <= \(prior.key.row)
                AND s.prior_first_row + (s.last_row - s.first_row) >= \(prior.key.row)
                AND (\(pipeline)::text IS NULL OR r.pipeline = \(pipeline)) AND r.started_at >= \(since ?? -Double.greatestFiniteMagnitude)
            ORDER BY r.started_at DESC
            """, logger: logger)
        var found: [FoundItem] = []
        for try await row in rows {
            let cells = row.makeRandomAccess()
            let runId = try cells[0].decode(String.self)
            let pipeline = try cells[1].decode(String.self)
            let startedAt = try cells[2].decode(Double.self)
            let range = try skip(row, from: 3)
            guard let skippedRow = range.row(sentAs: prior.key) else { continue }
            found.append(
                range.found(row: skippedRow, runId: runId, pipeline: pipeline, startedAt: startedAt, prior: prior))
        }
        return found
    }

    private static func skip(_ row: PostgresRow, from first: Int = 0) throws -> SkipRange {
        let cells = row.makeRandomAccess()
        func cell<T: PostgresDecodable>(_ index: Int, _ type: T.Type) throws -> T {
            try cells[first + index].decode(T.self)
        }
        let firstRow = try cell(1, Int.self)
        return SkipRange(
            step: try cell(0, Int.self), stepId: StoredText.decode(try cell(3, String.self)),
            rows: firstRow...max(firstRow, try cell(2, Int.self)),
            originFile: StoredText.decode(try cell(4, String.self)),
            firstLine: try cell(5, Int?.self), priorRun: try cell(6, String.self),
            prior: LedgerKey(step: try cell(7, Int.self), row: try cell(8, Int.self)))
    }

    /// The reason items group by.
    static let reason = FailureReason.sqlExpression("error", position: "strpos")

    /// The columns `item(_:from:)` reads, in its order.
    static let itemColumns = """
        step, "row", step_id, origin, digest, state, attempts, notification_id, error, retriable, updated_at, \
        idempotency_key, target, resolution
        """

    /// An ORDER BY term that sorts states as an item lives through them rather than alphabetically.
    static let lifecycleOrder =
        "CASE state "
        + ItemState.allCases.enumerated().map { "WHEN '\($1.rawValue)' THEN \($0) " }.joined() + "END"

    /// An item from the row's `itemColumns`, starting at column `first`.
    static func item(_ row: PostgresRow, from first: Int = 0) throws -> JournalItem {
        let cells = row.makeRandomAccess()
        func cell<T: PostgresDecodable>(_ index: Int, _ type: T.Type) throws -> T {
            try cells[first + index].decode(T.self)
        }
        func text(_ index: Int) throws -> String { StoredText.decode(try cell(index, String.self)) }
        func optionalText(_ index: Int) throws -> String? { StoredText.decode(try cell(index, String?.self)) }
        return JournalItem(
            key: LedgerKey(step: try cell(0, Int.self), row: try cell(1, Int.self)), stepId: try text(2),
            origin: try text(3), digest: try text(4), state: try itemState(try cell(5, String.self)),
            attempts: try cell(6, Int.self), notificationId: try optionalText(7), error: try optionalText(8),
            retriable: try cell(9, Bool.self), updatedAt: try cell(10, Double.self),
            idempotencyKey: try optionalText(11),
            target: try optionalText(12), resolution: try optionalText(13))
    }

    /// Reads an item state, failing clearly (never trapping) on text this build does not know.
    static func itemState(_ text: String) throws -> ItemState {
        guard let state = ItemState(rawValue: text) else {
            throw RunStoreError("an item has an unknown state '\(text)'")
        }
        return state
    }

    /// Bindings starting with `first`.
    static func binds(_ first: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(first)
        return binds
    }
}
