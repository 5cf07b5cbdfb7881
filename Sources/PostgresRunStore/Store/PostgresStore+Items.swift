import Foundation
import PipelineCore
import PostgresNIO
import RunStore

/// Reading a run's items back for reports.
extension PostgresStore {
    package func counts(run: String) async throws(RunStoreError) -> [StepCount] {
        try await withConnection("counting items") { connection in
            var counts: [StepCount] = []
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT step, min(step_id), state, count(*) FROM pushline.items
                        WHERE run = (SELECT seq FROM pushline.runs WHERE id = $1)
                        GROUP BY step, state ORDER BY step, \(PostgresRows.lifecycleOrder)
                        """, binds: PostgresRows.binds(run)), logger: self.logger)
            for try await row in rows {
                let (step, stepId, state, count) = try row.decode((Int, String, String, Int).self)
                counts.append(
                    StepCount(step: step, stepId: stepId, state: try PostgresRows.itemState(state), count: count))
            }
            return SkipRange.adding(try await PostgresRows.skips(run: run, connection, logger: self.logger), to: counts)
        }
    }

    package func items(run: String, states: [ItemState], limit: Int) async throws(RunStoreError) -> [JournalItem] {
        guard limit > 0 else { return [] }
        let wanted = ItemState.allCases.filter(states.contains).map(\.rawValue)
        return try await withConnection("reading items") { connection in
            let filter = wanted.isEmpty ? "" : " AND state = ANY($3)"
            var binds = PostgresRows.binds(run)
            binds.append(limit)
            if !wanted.isEmpty { binds.append(wanted) }
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT \(PostgresRows.itemColumns) FROM pushline.items
                        WHERE run = (SELECT seq FROM pushline.runs WHERE id = $1)\(filter) ORDER BY step, "row" LIMIT $2
                        """, binds: binds), logger: self.logger)
            var items: [JournalItem] = []
            for try await row in rows { items.append(try PostgresRows.item(row)) }
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
                            SELECT step, min(step_id) AS step_id, state, \(PostgresRows.reason) AS reason, count(*) AS n FROM pushline.items
                            WHERE run = (SELECT seq FROM pushline.runs WHERE id = $1) AND state IN ('failed', 'unknown', 'duplicate', 'bad')
                            GROUP BY step, state, reason) AS groups
                        -- Byte order and no error first, as in the SQLite journal, whatever the database's collation.
                        ORDER BY n DESC, step, state COLLATE "C", reason COLLATE "C" NULLS FIRST
                        """, binds: PostgresRows.binds(run)), logger: self.logger)
            for try await row in rows {
                let (step, stepId, state, error, count) = try row.decode((Int, String, String, String?, Int).self)
                groups.append(
                    FailureGroup(
                        step: step, stepId: StoredText.decode(stepId), state: try PostgresRows.itemState(state),
                        error: StoredText.decode(error), count: count, examples: []))
            }
            let skips = try await PostgresRows.skips(run: run, connection, logger: self.logger)
            guard examples > 0 else { return SkipRange.adding(skips, to: groups, examples: 0) }
            for index in groups.indices {
                var binds = PostgresRows.binds(run)
                binds.append(groups[index].step)
                binds.append(groups[index].state.rawValue)
                binds.append(StoredText.encode(groups[index].error))
                binds.append(examples)
                let origins = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT origin FROM pushline.items
                            WHERE run = (SELECT seq FROM pushline.runs WHERE id = $1) AND step = $2 AND state = $3
                                AND \(PostgresRows.reason) IS NOT DISTINCT FROM $4
                            ORDER BY "row" LIMIT $5
                            """, binds: binds), logger: self.logger)
                for try await origin in origins {
                    groups[index].examples.append(StoredText.decode(try origin.decode(String.self)))
                }
            }
            return SkipRange.adding(skips, to: groups, examples: examples)
        }
    }
}
