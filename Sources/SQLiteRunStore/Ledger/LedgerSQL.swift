import RunStore

/// The ledger's statements, built once for each number of rows per statement.
///
/// A batch is written with multi-row `INSERT ... VALUES (...), (...) ON CONFLICT DO UPDATE` statements:
/// SQLite's fixed cost per executed statement (reset, bind, open cursors) is a large part of a one-row
/// upsert, and sharing it across rows made a batch about a quarter cheaper in a C benchmark of this schema. Rows in one statement are applied
/// in order, so a key repeated within a batch behaves as if written twice.
enum LedgerSQL {
    /// The most rows one statement carries; larger batches use several.
    static let rowsPerStatement = 16

    /// Parameters: ?1 run seq, ?2 updated_at, then per row `step, row, origin, digest, idempotency_key, target`.
    static let markSendingParametersPerRow: Int32 = 6
    /// Parameters: ?1 run seq, ?2 updated_at, then per row
    /// `step, row, origin, digest, idempotency_key, target, state, notification_id, error, retriable`.
    static let recordParametersPerRow: Int32 = 10

    private static let sending = StoredState.code(.sending)
    private static let accepted = StoredState.code(.accepted)
    /// The states a prior send may be in: sent, being sent, or of unknown fate.
    private static let priorStates = StoredState.sql(.accepted, .sending, .unknown)

    /// What the key index holds of `column`: four bytes of a compacted key's digest (after its prefix and count bytes,
    /// `CompactText`), or a declared key's whole text. Four random bytes tell a million keys apart to within a row or
    /// two, at a quarter of the index's size; the lookups then compare the whole key. A query must spell the
    /// expression exactly so (with its own table alias) for SQLite to use the index.
    static func keyPrefix(_ column: String) -> String {
        "CASE WHEN typeof(\(column)) = 'blob' THEN substr(\(column), 3, 4) ELSE \(column) END"
    }

    /// The step ids of a run's steps, as `steps` records them once per run and step.
    static let insertStep =
        "INSERT INTO steps (run, step, step_id) VALUES (?1, ?2, ?3) ON CONFLICT (run, step) DO NOTHING"

    /// `markSending[n]` writes n rows (index 0 is unused).
    static let markSending: [String] = (0...rowsPerStatement).map { rows in
        insert
            + values(rows: rows, perRow: markSendingParametersPerRow) { p in
                "(?1, ?\(p), ?\(p + 1), ?\(p + 2), ?\(p + 3), ?\(p + 4), ?\(p + 5), \(sending), 1, NULL, NULL, 0, ?2)"
            } + """
                 ON CONFLICT (run, step, row) DO UPDATE SET
                    origin = excluded.origin, digest = excluded.digest,
                    idempotency_key = excluded.idempotency_key, target = excluded.target,
                    state = \(sending), attempts = items.attempts + 1,
                    notification_id = NULL, error = NULL, retriable = 0, updated_at = excluded.updated_at
                """
    }

    /// `record[n]` writes n rows (index 0 is unused). A new row gets 0 attempts; an existing one keeps its
    /// count, origin, digest and idempotency key (those were recorded when it was marked sending). The key is not
    /// assigned at all on conflict: SQLite rewrites an index entry whenever an UPDATE assigns a column the index reads,
    /// even to its own value, and the key index's entries sit at random places, so each outcome wrote one more
    /// index page.
    static let record: [String] = (0...rowsPerStatement).map { rows in
        insert
            + values(rows: rows, perRow: recordParametersPerRow) { p in
                "(?1, ?\(p), ?\(p + 1), ?\(p + 2), ?\(p + 3), ?\(p + 4), ?\(p + 5), ?\(p + 6), 0, ?\(p + 7), ?\(p + 8), ?\(p + 9), ?2)"
            } + """
                 ON CONFLICT (run, step, row) DO UPDATE SET
                    target = coalesce(items.target, excluded.target), state = excluded.state, notification_id = excluded.notification_id,
                    error = excluded.error, retriable = excluded.retriable, updated_at = excluded.updated_at
                """
    }

    /// Sets the id of what a `sending` item creates. Parameters: ?1 run seq, ?2 updated_at, ?3 step, ?4 row, ?5 id.
    static let assignId = """
        UPDATE items SET notification_id = ?5, updated_at = ?2 WHERE run = ?1 AND step = ?3 AND row = ?4 AND state = \(sending)
        """

    /// The point lookup a resume makes for every row.
    static let entry = """
        SELECT digest, state, attempts, notification_id, error, retriable FROM items
        WHERE run = ?1 AND step = ?2 AND row = ?3
        """

    /// The newest item of any run with an idempotency key, sent or being sent, recent enough (the key is its own
    /// scope: a default key names its hub, a declared key its pipeline and step); the asking run's own items first
    /// (a second row of one run is a duplicate of the first whatever other runs did, `--again` or not), then
    /// accepted ones.
    /// Parameters: ?1 key, ?2 asking run seq (-1 for none), ?3 since, ?4 asking step, ?5 asking row, ?6 the key's
    /// `keyPrefix`.
    static let priorSend = """
        SELECT r.id, i.updated_at, i.state, i.origin, i.run = ?2, i.notification_id, i.step, i.row
        FROM items AS i JOIN runs AS r ON r.seq = i.run
        WHERE \(keyPrefix("i.idempotency_key")) = ?6 AND i.idempotency_key IS NOT NULL AND i.idempotency_key = ?1
            AND i.updated_at >= ?3 AND i.state IN \(priorStates) AND NOT (i.run = ?2 AND i.step = ?4 AND i.row = ?5)
        ORDER BY i.run = ?2 DESC, i.state = \(accepted) DESC, i.updated_at DESC, i.step DESC, i.row DESC LIMIT 1
        """

    /// The most keys one `priorSends` statement asks for.
    static let keysPerLookup = 32

    /// Every item that could be the prior send of one of up to `keysPerLookup` keys, found by their `keyPrefix`es (?2
    /// onwards; NULL for a slot not used): `JournalLedger.priorSends` keeps the rows whose whole key was asked for and
    /// picks each asker's as `priorSend` orders them. ?1 since. Runs come back by seq, which `JournalLedger` turns into
    /// ids once per run rather than joining every row.
    static let priorSends = """
        SELECT i.idempotency_key, i.run, i.updated_at, i.state, i.origin, i.notification_id, i.step, i.row
        FROM items AS i
        WHERE \(keyPrefix("i.idempotency_key")) IN (\((0..<keysPerLookup).map { "?\($0 + 2)" }.joined(separator: ", ")))
            AND i.idempotency_key IS NOT NULL AND i.updated_at >= ?1 AND i.state IN \(priorStates)
        """

    /// A skip range replaces what the run recorded of those rows before (a range it has since extended).
    static let deleteSkips = "DELETE FROM skips WHERE run = ?1 AND step = ?2 AND first_row <= ?4 AND last_row >= ?3"
    static let insertSkip = """
        INSERT INTO skips (run, step, first_row, last_row, step_id, origin, first_line, prior_run, prior_step, prior_first_row)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
        """

    private static let insert = """
        INSERT INTO items (run, step, row, origin, digest, idempotency_key, target, state, attempts,
                           notification_id, error, retriable, updated_at)
        VALUES\u{20}
        """

    private static func values(rows: Int, perRow: Int32, _ tuple: (Int32) -> String) -> String {
        (0..<Int32(rows)).map { tuple(3 + $0 * perRow) }.joined(separator: ", ")
    }
}
