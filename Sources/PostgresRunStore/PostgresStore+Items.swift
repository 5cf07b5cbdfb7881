import Foundation
import PipelineCore
import PostgresNIO
import RunStore

/// Reading a run's items back for reports, settling unknown items by hand, and finding items again.
extension PostgresStore {
    package func counts(run: String) async throws(RunStoreError) -> [StepCount] {
        try await withConnection("counting items") { connection in
            var counts: [StepCount] = []
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT step, min(step_id), state, count(*) FROM pushline.items
                        WHERE run = (SELECT seq FROM pushline.runs WHERE id = $1)
                        GROUP BY step, state ORDER BY step, \(Self.lifecycleOrder)
                        """, binds: Self.binds(run)), logger: self.logger)
            for try await row in rows {
                let (step, stepId, state, count) = try row.decode((Int, String, String, Int).self)
                counts.append(StepCount(step: step, stepId: stepId, state: try Self.itemState(state), count: count))
            }
            return SkipRange.adding(try await Self.skips(run: run, connection, logger: self.logger), to: counts)
        }
    }

    package func items(run: String, states: [ItemState], limit: Int) async throws(RunStoreError) -> [JournalItem] {
        guard limit > 0 else { return [] }
        let wanted = ItemState.allCases.filter(states.contains).map(\.rawValue)
        return try await withConnection("reading items") { connection in
            let filter = wanted.isEmpty ? "" : " AND state = ANY($3)"
            var binds = Self.binds(run)
            binds.append(limit)
            if !wanted.isEmpty { binds.append(wanted) }
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT \(Self.itemColumns) FROM pushline.items
                        WHERE run = (SELECT seq FROM pushline.runs WHERE id = $1)\(filter) ORDER BY step, "row" LIMIT $2
                        """, binds: binds), logger: self.logger)
            var items: [JournalItem] = []
            for try await row in rows { items.append(try Self.item(row)) }
            return items
        }
    }

    package func failureGroups(run: String, examples: Int) async throws(RunStoreError) -> [FailureGroup] {
        try await withConnection("grouping failures") { connection in
            var groups: [FailureGroup] = []
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT step, step_id, state, reason, n FROM (
                            SELECT step, min(step_id) AS step_id, state, \(Self.reason) AS reason, count(*) AS n FROM pushline.items
                            WHERE run = (SELECT seq FROM pushline.runs WHERE id = $1) AND state IN ('failed', 'unknown', 'duplicate', 'bad')
                            GROUP BY step, state, reason) AS groups
                        -- Byte order and no error first, as in the SQLite journal, whatever the database's collation.
                        ORDER BY n DESC, step, state COLLATE "C", reason COLLATE "C" NULLS FIRST
                        """, binds: Self.binds(run)), logger: self.logger)
            for try await row in rows {
                let (step, stepId, state, error, count) = try row.decode((Int, String, String, String?, Int).self)
                groups.append(
                    FailureGroup(
                        step: step, stepId: StoredText.decode(stepId), state: try Self.itemState(state),
                        error: StoredText.decode(error), count: count, examples: []))
            }
            let skips = try await Self.skips(run: run, connection, logger: self.logger)
            guard examples > 0 else { return SkipRange.adding(skips, to: groups, examples: 0) }
            for index in groups.indices {
                var binds = Self.binds(run)
                binds.append(groups[index].step)
                binds.append(groups[index].state.rawValue)
                binds.append(StoredText.encode(groups[index].error))
                binds.append(examples)
                let origins = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT origin FROM pushline.items
                            WHERE run = (SELECT seq FROM pushline.runs WHERE id = $1) AND step = $2 AND state = $3
                                AND \(Self.reason) IS NOT DISTINCT FROM $4
                            ORDER BY "row" LIMIT $5
                            """, binds: binds), logger: self.logger)
                for try await origin in origins {
                    groups[index].examples.append(StoredText.decode(try origin.decode(String.self)))
                }
            }
            return SkipRange.adding(skips, to: groups, examples: examples)
        }
    }

    package func resolve(
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
        let location = location
        return try await transaction("settling items") { connection in
            var seq: Int?
            var status = ""
            for try await row in try await connection.query(
                "SELECT seq, status FROM pushline.runs WHERE id = \(id) FOR UPDATE", logger: self.logger)
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
                    """, logger: self.logger)
                for try await _ in changed { settled += 1 }
            }
            var remaining = 0
            for try await row in try await connection.query(
                """
                SELECT count(*) FROM pushline.items WHERE run = \(seq) AND state IN ('failed', 'unknown', 'sending', 'bad', 'pending')
                """, logger: self.logger)
            {
                remaining = try row.decode(Int.self)
            }
            // Only a partial run ran to its end, so only then is every item in the store: an interrupted or
            // abandoned run has rows it never reached.
            let completes = remaining == 0 && status == RunStatus.partial.rawValue && settled > 0
            if completes {
                try await connection.query(
                    "UPDATE pushline.runs SET status = 'completed', exit_code = 0 WHERE seq = \(seq)",
                    logger: self.logger)
            }
            return Resolved(settled: settled, remaining: remaining, completed: completes)
        }
    }

    package func find(_ text: String, pipeline: String?, since: Double?, limit: Int) async throws(RunStoreError)
        -> [FoundItem]
    {
        guard !text.isEmpty, limit > 0 else { return [] }
        let columns = Self.itemColumns.split(separator: ",").map {
            "i." + $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        .joined(separator: ", ")
        return try await withConnection("finding items") { connection in
            var binds = Self.binds(StoredText.encode(text))
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
                        """, binds: binds), logger: self.logger)
            var found: [FoundItem] = []
            for try await row in rows {
                guard found.count < limit else { continue }
                let (runId, runPipeline) = try row.decode((String, String).self)
                let item = try Self.item(row, from: 2)
                guard FindMatch.matches(item, text) else { continue }
                found.append(FoundItem(runId: runId, pipeline: runPipeline, item: item))
            }
            // Rows later runs skipped because one of these had sent them are kept as ranges: listed before it.
            var withSkips: [FoundItem] = []
            for match in found {
                if match.item.state == .accepted {
                    withSkips += try await Self.skipped(
                        as: match.item, of: match.runId, pipeline: pipeline, since: since, connection,
                        logger: self.logger)
                }
                withSkips.append(match)
            }
            return Array(withSkips.prefix(limit))
        }
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
