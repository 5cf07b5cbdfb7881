import PipelineCore
import RunStore

/// Reading a run's items back for reports: counts, listings and grouped failures.
extension Journal {
    /// Item counts per step and state for a run, ordered by step and then by state in lifecycle order
    /// (pending, sending, accepted, failed, unknown); rows skipped as already sent count as duplicates.
    package func counts(run: String) async throws(RunStoreError) -> [StepCount] {
        try await withConnection { (connection) throws(RunStoreError) -> [StepCount] in
            var counts: [StepCount] = []
            try connection.query(
                """
                SELECT i.step, \(JournalRows.stepId("i")), i.state, count(*) FROM items AS i
                WHERE i.run = (SELECT seq FROM runs WHERE id = ?1)
                GROUP BY i.step, i.state ORDER BY i.step, \(Self.lifecycleOrder)
                """, bind: { (statement) throws(RunStoreError) in try statement.bind(1, run) }
            ) { (row) throws(RunStoreError) in
                counts.append(
                    StepCount(
                        step: row.int(0), stepId: row.text(1) ?? "",
                        state: try JournalRows.itemState(row, 2, connection), count: row.int(3)))
            }
            return SkipRange.adding(try JournalRows.skips(run: run, connection), to: counts)
        }
    }

    /// Items of a run in the given states (all states when `states` is empty), ordered by (step, row), at
    /// most `limit` (none when `limit` is not positive).
    package func items(run: String, states: [ItemState], limit: Int) async throws(RunStoreError) -> [JournalItem] {
        guard limit > 0 else { return [] }
        // Sorted and deduplicated, so each set of states maps to one cached statement.
        let wanted = ItemState.allCases.filter(states.contains)
        let filter = wanted.isEmpty ? "" : " AND i.state IN " + StoredState.sql(wanted)
        return try await withConnection { (connection) throws(RunStoreError) -> [JournalItem] in
            var items: [JournalItem] = []
            try connection.query(
                """
                SELECT \(JournalRows.itemColumns("i")) FROM items AS i WHERE i.run = (SELECT seq FROM runs WHERE id = ?1)\(filter)
                ORDER BY i.step, i.row LIMIT ?2
                """,
                bind: { (statement) throws(RunStoreError) in
                    try statement.bind(1, run)
                    try statement.bind(2, Int64(limit))
                }
            ) { (row) throws(RunStoreError) in
                items.append(try JournalRows.item(row, connection))
            }
            return items
        }
    }

    /// Items that were not accepted (failed, unknown, duplicate, bad) grouped by step, state and reason,
    /// biggest group first, each with the origins of up to `examples` of its items (in row order); rows skipped as
    /// already sent count in their run's group.
    ///
    /// The reason is the error text, except that an "already sent by run X (rows.csv:41 at …)" groups
    /// by its run (`FailureReason`), so a thousand duplicates of one run are one group.
    package func failureGroups(run: String, examples: Int) async throws(RunStoreError) -> [FailureGroup] {
        try await withConnection { (connection) throws(RunStoreError) -> [FailureGroup] in
            var groups: [FailureGroup] = []
            try connection.query(
                """
                SELECT i.step, \(JournalRows.stepId("i")), i.state, \(Self.reason) AS reason, count(*) FROM items AS i
                WHERE i.run = (SELECT seq FROM runs WHERE id = ?1) AND i.state IN \(StoredState.sql(.failed, .unknown, .duplicate, .bad))
                GROUP BY i.step, i.state, reason ORDER BY count(*) DESC, i.step, \(Self.nameOrder), reason
                """, bind: { (statement) throws(RunStoreError) in try statement.bind(1, run) }
            ) { (row) throws(RunStoreError) in
                groups.append(
                    FailureGroup(
                        step: row.int(0), stepId: row.text(1) ?? "",
                        state: try JournalRows.itemState(row, 2, connection), error: row.text(3),
                        count: row.int(4), examples: []))
            }
            let skips = try JournalRows.skips(run: run, connection)
            guard examples > 0 else { return SkipRange.adding(skips, to: groups, examples: 0) }
            for index in groups.indices {
                // `error IS ?4` so the group of items without an error text (NULL) matches too.
                try connection.query(
                    """
                    SELECT i.origin, i.row FROM items AS i
                    WHERE i.run = (SELECT seq FROM runs WHERE id = ?1) AND i.step = ?2 AND i.state = ?3 AND \(Self.reason) IS ?4
                    ORDER BY i.row LIMIT ?5
                    """,
                    bind: { (statement) throws(RunStoreError) in
                        try statement.bind(1, run)
                        try statement.bind(2, Int64(groups[index].step))
                        try statement.bind(3, StoredState.code(groups[index].state))
                        try statement.bind(4, groups[index].error)
                        try statement.bind(5, Int64(examples))
                    }
                ) { (row) throws(RunStoreError) in
                    groups[index].examples.append(
                        try connection.originFiles.origin(row, 0, row: row.int(1), connection))
                }
            }
            return SkipRange.adding(skips, to: groups, examples: examples)
        }
    }

    /// The reason items group by.
    private static let reason = FailureReason.sqlExpression("error")

    /// An ORDER BY term that sorts states as an item lives through them rather than by their codes.
    private static let lifecycleOrder =
        "CASE i.state "
        + ItemState.allCases.enumerated().map { "WHEN \(StoredState.code($1)) THEN \($0) " }.joined() + "END"

    /// An ORDER BY term that sorts states by their names, as the journal did when it stored them as text.
    private static let nameOrder =
        "CASE i.state "
        + ItemState.allCases.sorted { $0.rawValue < $1.rawValue }.enumerated().map {
            "WHEN \(StoredState.code($1)) THEN \($0) "
        }.joined()
        + "END"
}
