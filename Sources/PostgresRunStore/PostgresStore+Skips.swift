import Foundation
import Logging
import PipelineCore
import PostgresNIO
import RunStore

/// Reading the rows runs skipped as already sent (`SkipRange`), which the store keeps as ranges.
extension PostgresStore {
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
}
