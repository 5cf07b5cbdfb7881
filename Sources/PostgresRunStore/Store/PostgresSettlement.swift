import Foundation
import PipelineCore
import PostgresNIO
import RunStore

/// Settling items of unknown fate by hand, and finding items again: what `runs resolve` and `runs find` do to a store.
struct PostgresSettlement: Sendable {
    let store: PostgresStore

    func resolve(
        run id: String, as resolution: Resolution, step: Int?, rows: [ClosedRange<Int>], by who: String, note: String?,
        now: Double
    ) async throws(RunStoreError) -> Resolved {
        // A command line cannot carry NUL, but a caller of the store can, and PostgreSQL's text cannot hold it: it
        // becomes U+FFFD here rather than failing the settle (this text is joined to others in SQL, so it is not escaped).
        let text = ("\(resolution.rawValue): settled by \(who) at \(RunID.iso(now))" + (note.map { ": \($0)" } ?? ""))
            .replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
        // Rows are 32-bit in the table: ranges are clipped to that, and one wholly above it matches nothing.
        let ranges =
            rows.isEmpty
            ? [1...Int(Int32.max)]
            : rows.filter { $0.lowerBound <= Int(Int32.max) && $0.upperBound >= Int(Int32.min) }
                .map { max($0.lowerBound, Int(Int32.min))...min($0.upperBound, Int(Int32.max)) }
        let location = store.location
        return try await store.transaction("settling items") { connection in
            var seq: Int?
            var status = ""
            for try await row in try await connection.query(
                "SELECT seq, status FROM pushline.runs WHERE id = \(id) FOR UPDATE", logger: store.logger)
            {
                (seq, status) = try row.decode((Int, String).self)
            }
            guard let seq else { throw RunStoreError("there is no run \(id) in the run store at \(location)") }
            var settled = 0
            for range in ranges {
                let changed = try await connection.query(
                    """
                    UPDATE pushline.items SET
                        state = CASE \(resolution.rawValue) WHEN 'delivered' THEN 'accepted' ELSE 'failed' END,
                        retriable = \(resolution.rawValue) <> 'delivered',
                        resolution = \(text) || coalesce(' (was unknown: ' || error || ')', ''),
                        error = CASE \(resolution.rawValue) WHEN 'delivered' THEN NULL ELSE 'to be sent again: ' || \(text) END,
                        updated_at = \(now)
                    WHERE run = \(seq) AND state IN ('unknown', 'sending') AND (\(step ?? -1) < 0 OR step = \(step ?? -1))
                        AND "row" BETWEEN \(range.lowerBound) AND \(range.upperBound)
                    RETURNING 1
                    """, logger: store.logger)
                for try await _ in changed { settled += 1 }
            }
            var remaining = 0
            for try await row in try await connection.query(
                """
                SELECT count(*) FROM pushline.items WHERE run = \(seq) AND state IN ('failed', 'unknown', 'sending', 'bad', 'pending')
                """, logger: store.logger)
            {
                remaining = try row.decode(Int.self)
            }
            // Only a partial run ran to its end, so only then is every item in the store: an interrupted or
            // abandoned run has rows it never reached.
            let completes = remaining == 0 && status == RunStatus.partial.rawValue && settled > 0
            if completes {
                try await connection.query(
                    "UPDATE pushline.runs SET status = 'completed', exit_code = 0 WHERE seq = \(seq)",
                    logger: store.logger)
            }
            return Resolved(settled: settled, remaining: remaining, completed: completes)
        }
    }

    func find(_ text: String, pipeline: String?, since: Double?, limit: Int) async throws(RunStoreError)
        -> [FoundItem]
    {
        guard !text.isEmpty, limit > 0 else { return [] }
        let columns = PostgresRows.itemColumns.split(separator: ",").map {
            "i." + $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        .joined(separator: ", ")
        return try await store.withConnection("finding items") { connection in
            var binds = PostgresRows.binds(StoredText.encode(text))
            binds.append(pipeline)
            binds.append(since ?? -Double.greatestFiniteMagnitude)
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT r.id, r.pipeline, \(columns)
                        FROM pushline.items AS i JOIN pushline.runs AS r ON r.seq = i.run
                        WHERE (i.idempotency_key = $1 OR substr(i.idempotency_key, strpos(i.idempotency_key, ':') + 1) = $1
                               OR substr(i.idempotency_key, strpos(i.idempotency_key, '/') + 1) = $1 OR i.origin = $1 OR strpos(i.target, $1) > 0)
                            AND ($2::text IS NULL OR r.pipeline = $2) AND i.updated_at >= $3
                        ORDER BY i.updated_at DESC, i.run DESC, i.step, i."row"
                        """, binds: binds), logger: store.logger)
            var found: [FoundItem] = []
            for try await row in rows {
                guard found.count < limit else { continue }
                let (runId, runPipeline) = try row.decode((String, String).self)
                let item = try PostgresRows.item(row, from: 2)
                guard FindMatch.matches(item, text) else { continue }
                found.append(FoundItem(runId: runId, pipeline: runPipeline, item: item))
            }
            // Rows later runs skipped because one of these had sent them are kept as ranges: listed before it.
            var withSkips: [FoundItem] = []
            for match in found {
                if match.item.state == .accepted {
                    withSkips += try await PostgresRows.skipped(
                        as: match.item, of: match.runId, pipeline: pipeline, since: since, connection,
                        logger: store.logger)
                }
                withSkips.append(match)
            }
            return Array(withSkips.prefix(limit))
        }
    }
}
