import PipelineCore
import PostgresNIO
import RunStore

/// The pace shared by every process sending to a hub through this database (`HubPace`).
///
/// `pushline.pace` holds one row per hub pause (`pause <hub URL>`: `paused_until`) and one per budget (its
/// key: `next_slot`, the first slot no process has reserved yet). Times are the database server's clock,
/// read inside each statement, so the machines' own clocks never have to agree. A reservation is one
/// statement: the upsert locks the budget's row, so two processes reserving at once get consecutive blocks.
extension PostgresStore {
    package func reserve(hub: String, budget: PaceBudget?, count: Int) async -> Double? {
        let pauseKey = Self.pauseKey(hub)
        let logger = logger
        guard let budget, count > 0, budget.rate > 0 else {
            return try? await withConnection("reading the hub's pause") { connection in
                let rows = try await connection.query(
                    """
                    SELECT GREATEST(0, paused_until - extract(epoch FROM clock_timestamp())::float8)
                    FROM pushline.pace WHERE key = \(pauseKey)
                    """, logger: logger)
                var wait = 0.0
                for try await row in rows { wait = try row.decode(Double.self) }
                return wait
            }
        }
        let span = Double(count) / budget.rate
        return try? await withConnection("reserving send slots") { connection in
            // The block starts at the budget's next free slot, but never before now or before the hub's pause ends.
            let rows = try await connection.query(
                """
                WITH clock AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS now),
                floor AS (SELECT GREATEST(clock.now, COALESCE((SELECT paused_until FROM pushline.pace WHERE key = \(pauseKey)), 0)) AS t
                          FROM clock)
                INSERT INTO pushline.pace AS p (key, next_slot, paused_until)
                SELECT \(budget.key), floor.t + \(span), 0 FROM floor
                ON CONFLICT (key) DO UPDATE SET next_slot = GREATEST(p.next_slot, EXCLUDED.next_slot - \(span)) + \(span)
                RETURNING p.next_slot - \(span) - (SELECT now FROM clock)
                """, logger: logger)
            var wait = 0.0
            for try await row in rows { wait = try row.decode(Double.self) }
            return max(0, wait)
        }
    }

    package func pause(hub: String, seconds: Double) async {
        guard seconds > 0, seconds.isFinite else { return }
        let pauseKey = Self.pauseKey(hub)
        let logger = logger
        _ = try? await withConnection("recording the hub's pause") { connection in
            try await connection.query(
                """
                INSERT INTO pushline.pace AS p (key, next_slot, paused_until)
                VALUES (\(pauseKey), 0, extract(epoch FROM clock_timestamp())::float8 + \(seconds))
                ON CONFLICT (key) DO UPDATE SET paused_until = GREATEST(p.paused_until, EXCLUDED.paused_until)
                """, logger: logger)
        }
    }

    /// The row of `hub`'s pause; budget keys start otherwise (`hub `, `run `), so they never meet.
    static func pauseKey(_ hub: String) -> String { "pause \(hub)" }
}
