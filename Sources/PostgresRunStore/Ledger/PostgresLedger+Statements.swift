import PipelineCore
import PostgresNIO
import RunStore

/// The statements that write items: multi-row `INSERT … ON CONFLICT DO UPDATE`s of the items table, `$1` the run and
/// `$2` the time, then each row's parameters.
extension PostgresLedger {
    private static let insert = """
        INSERT INTO pushline.items AS items (run, step, "row", step_id, origin, digest, idempotency_key, target, state, attempts,
                                             notification_id, error, retriable, updated_at)
        VALUES\u{20}
        """

    /// Marks `items` sending and counts an attempt (1 for a new item), clearing the previous attempt's id and error.
    static func markSendingQuery(_ items: some Collection<LedgerItem>, seq: Int, now: Double) -> PostgresQuery {
        var binds = runBindings(seq: seq, now: now, rows: items.count)
        return PostgresQuery(unsafeSQL: markSQL(items, binds: &binds), binds: binds)
    }

    /// Records `outcomes`: a new row gets 0 attempts; an existing one keeps its count, step id, origin, digest and
    /// idempotency key (those were recorded when it was marked sending; the SQLite journal leaves the key alone too).
    static func recordQuery(_ outcomes: some Collection<LedgerOutcome>, seq: Int, now: Double) -> PostgresQuery {
        var binds = runBindings(seq: seq, now: now, rows: outcomes.count)
        return PostgresQuery(unsafeSQL: recordSQL(outcomes, binds: &binds), binds: binds)
    }

    /// `recordQuery` and `markSendingQuery` as one statement (one round trip): the record a data-modifying `WITH`.
    /// Only for rows that are not in both (a statement cannot change one row twice) and fit one statement each.
    static func recordAndMarkQuery(
        _ outcomes: some Collection<LedgerOutcome>, marking items: some Collection<LedgerItem>, seq: Int, now: Double
    ) -> PostgresQuery {
        var binds = runBindings(seq: seq, now: now, rows: outcomes.count + items.count)
        let recorded = recordSQL(outcomes, binds: &binds)
        let marked = markSQL(items, binds: &binds)
        return PostgresQuery(unsafeSQL: "WITH recorded AS (" + recorded + ") " + marked, binds: binds)
    }

    private static func runBindings(seq: Int, now: Double, rows: Int) -> PostgresBindings {
        var binds = PostgresBindings(capacity: 2 + rows * 11)
        binds.append(seq)
        binds.append(now)
        return binds
    }

    private static func markSQL(_ items: some Collection<LedgerItem>, binds: inout PostgresBindings) -> String {
        upsertSQL(
            items, perRow: 7, binds: &binds, bind: { item, binds in bindItem(item, to: &binds) },
            tuple: { p in
                "(\(p.joined(separator: ", ")), 'sending', 1, NULL, NULL, false, $2)"
            },
            conflict: """
                step_id = excluded.step_id, origin = excluded.origin, digest = excluded.digest,
                idempotency_key = excluded.idempotency_key, target = excluded.target,
                state = 'sending', attempts = items.attempts + 1,
                notification_id = NULL, error = NULL, retriable = false, updated_at = excluded.updated_at
                """)
    }

    private static func recordSQL(_ outcomes: some Collection<LedgerOutcome>, binds: inout PostgresBindings) -> String {
        upsertSQL(
            outcomes, perRow: 11, binds: &binds,
            bind: { outcome, binds in
                bindItem(outcome.item, to: &binds)
                binds.append(outcome.state.rawValue)
                binds.append(StoredText.encode(outcome.notificationId))
                binds.append(StoredText.encode(outcome.error))
                binds.append(outcome.retriable)
            },
            tuple: { p in
                "(\(p[0 ..< 8].joined(separator: ", ")), 0, \(p[8]), \(p[9]), \(p[10]), $2)"
            },
            conflict: """
                target = coalesce(items.target, excluded.target), state = excluded.state,
                notification_id = excluded.notification_id, error = excluded.error, retriable = excluded.retriable,
                updated_at = excluded.updated_at
                """)
    }

    /// One `INSERT … ON CONFLICT DO UPDATE` of the items table, its rows' `perRow` parameters appended to `binds`
    /// (which hold `$1` and `$2` already), which `tuple` places (after `$1`) from their placeholders.
    private static func upsertSQL<Row>(
        _ rows: some Collection<Row>, perRow: Int, binds: inout PostgresBindings,
        bind: (Row, inout PostgresBindings) -> Void, tuple: ([String]) -> String, conflict: String
    ) -> String {
        var tuples: [String] = []
        tuples.reserveCapacity(rows.count)
        for row in rows {
            let first = binds.count + 1
            bind(row, &binds)
            tuples.append("($1, " + tuple((0..<perRow).map { "$\(first + $0)" }).dropFirst())
        }
        return insert + tuples.joined(separator: ", ") + " ON CONFLICT (run, step, \"row\") DO UPDATE SET " + conflict
    }

    /// Binds step, row, step id, origin, digest, idempotency key and target.
    private static func bindItem(_ item: LedgerItem, to binds: inout PostgresBindings) {
        binds.append(item.key.step)
        binds.append(item.key.row)
        binds.append(StoredText.encode(item.stepId))
        binds.append(StoredText.encode(item.origin))
        binds.append(StoredText.encode(item.digest))
        binds.append(StoredText.encode(item.idempotencyKey))
        binds.append(StoredText.encode(item.target))
    }
}
