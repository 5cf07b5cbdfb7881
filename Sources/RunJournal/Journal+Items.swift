import PipelineCore
import RunStore

/// Reading a run's items back for reports: counts, listings and grouped failures.
extension Journal {
    /// Item counts per step and state for a run, ordered by step and then by state in lifecycle order
    /// (pending, sending, accepted, failed, unknown); rows skipped as already sent count as duplicates.
    public func counts(run: String) throws(RunStoreError) -> [StepCount] {
        try withConnection { (connection) throws(RunStoreError) -> [StepCount] in
            var counts: [StepCount] = []
            try connection.query("""
                SELECT step, min(step_id), state, count(*) FROM items
                WHERE run = (SELECT seq FROM runs WHERE id = ?1)
                GROUP BY step, state ORDER BY step, \(Self.lifecycleOrder)
                """, bind: { (statement) throws(RunStoreError) in try statement.bind(1, run) }) { (row) throws(RunStoreError) in
                counts.append(StepCount(step: row.int(0), stepId: row.text(1) ?? "",
                                        state: try Self.itemState(row, 2, connection), count: row.int(3)))
            }
            return SkipRange.adding(try Self.skips(run: run, connection), to: counts)
        }
    }

    /// Items of a run in the given states (all states when `states` is empty), ordered by (step, row), at
    /// most `limit` (none when `limit` is not positive).
    public func items(run: String, states: [ItemState], limit: Int) throws(RunStoreError) -> [JournalItem] {
        guard limit > 0 else { return [] }
        // Sorted and deduplicated, so each set of states maps to one cached statement.
        let wanted = ItemState.allCases.filter(states.contains)
        let filter = wanted.isEmpty ? "" : " AND state IN (" + wanted.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
        return try withConnection { (connection) throws(RunStoreError) -> [JournalItem] in
            var items: [JournalItem] = []
            try connection.query("""
                SELECT \(Self.itemColumns) FROM items WHERE run = (SELECT seq FROM runs WHERE id = ?1)\(filter) ORDER BY step, row LIMIT ?2
                """, bind: { (statement) throws(RunStoreError) in
                try statement.bind(1, run)
                try statement.bind(2, Int64(limit))
            }) { (row) throws(RunStoreError) in
                items.append(try Self.item(row, connection))
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
    public func failureGroups(run: String, examples: Int) throws(RunStoreError) -> [FailureGroup] {
        try withConnection { (connection) throws(RunStoreError) -> [FailureGroup] in
            var groups: [FailureGroup] = []
            try connection.query("""
                SELECT step, min(step_id), state, \(Self.reason) AS reason, count(*) FROM items
                WHERE run = (SELECT seq FROM runs WHERE id = ?1) AND state IN ('failed', 'unknown', 'duplicate', 'bad')
                GROUP BY step, state, reason ORDER BY count(*) DESC, step, state, reason
                """, bind: { (statement) throws(RunStoreError) in try statement.bind(1, run) }) { (row) throws(RunStoreError) in
                groups.append(FailureGroup(step: row.int(0), stepId: row.text(1) ?? "",
                                           state: try Self.itemState(row, 2, connection), error: row.text(3),
                                           count: row.int(4), examples: []))
            }
            let skips = try Self.skips(run: run, connection)
            guard examples > 0 else { return SkipRange.adding(skips, to: groups, examples: 0) }
            for index in groups.indices {
                // `error IS ?4` so the group of items without an error text (NULL) matches too.
                try connection.query("""
                    SELECT origin FROM items
                    WHERE run = (SELECT seq FROM runs WHERE id = ?1) AND step = ?2 AND state = ?3 AND \(Self.reason) IS ?4
                    ORDER BY row LIMIT ?5
                    """, bind: { (statement) throws(RunStoreError) in
                    try statement.bind(1, run)
                    try statement.bind(2, Int64(groups[index].step))
                    try statement.bind(3, groups[index].state.rawValue)
                    try statement.bind(4, groups[index].error)
                    try statement.bind(5, Int64(examples))
                }) { (row) throws(RunStoreError) in
                    groups[index].examples.append(try connection.originFiles.origin(row, 0, connection))
                }
            }
            return SkipRange.adding(skips, to: groups, examples: examples)
        }
    }

    /// The reason items group by.
    private static let reason = FailureReason.sqlExpression("error")

    /// The columns `item(_:_:)` reads, in its order.
    static let itemColumns = """
        step, row, step_id, origin, digest, state, attempts, notification_id, error, retriable, updated_at, \
        idempotency_key, target, resolution
        """

    /// An item from a row of `itemColumns`.
    static func item(_ row: SQLiteStatement, _ connection: SQLiteConnection, from first: Int32 = 0) throws(RunStoreError) -> JournalItem {
        JournalItem(
            key: LedgerKey(step: row.int(first), row: row.int(first + 1)), stepId: row.text(first + 2) ?? "",
            origin: try connection.originFiles.origin(row, first + 3, connection), digest: row.compactText(first + 4) ?? "",
            state: try itemState(row, first + 5, connection), attempts: row.int(first + 6), notificationId: row.compactText(first + 7),
            error: row.text(first + 8), retriable: row.int64(first + 9) != 0, updatedAt: row.double(first + 10),
            idempotencyKey: row.compactText(first + 11),
            target: row.text(first + 12), resolution: row.text(first + 13))
    }

    /// An ORDER BY term that sorts states as an item lives through them rather than alphabetically.
    private static let lifecycleOrder = "CASE state "
        + ItemState.allCases.enumerated().map { "WHEN '\($1.rawValue)' THEN \($0) " }.joined() + "END"

    /// Reads an item state, failing clearly (never trapping) on text this build does not know.
    static func itemState(_ row: SQLiteStatement, _ column: Int32, _ connection: SQLiteConnection) throws(RunStoreError) -> ItemState {
        let text = row.text(column) ?? ""
        guard let state = ItemState(rawValue: text) else {
            throw RunStoreError("an item has an unknown state '\(text)' in the run journal at \(connection.path)")
        }
        return state
    }
}
