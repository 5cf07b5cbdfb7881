import Foundation
import PipelineCore
import RunStore

/// The pace shared by every process sending to a hub through this journal file (`HubPace`): the shards of a
/// run on one machine, or two pipelines sending to one hub. Same table and rules as the PostgreSQL store,
/// on this machine's clock (every process sharing the file shares the clock).
extension Journal {
    package func reserve(hub: String, budget: PaceBudget?, count: Int) async -> Double? {
        let now = Date().timeIntervalSince1970
        return try? await withConnection { (connection) throws(RunStoreError) -> Double in
            guard let budget, count > 0, budget.rate > 0 else {
                return max(0, try Self.pausedUntil(hub, connection) - now)
            }
            let span = Double(count) / budget.rate
            return try connection.transaction { () throws(RunStoreError) -> Double in
                // The block starts at the budget's next free slot, but never before now or before the hub's pause ends.
                let floor = max(now, try Self.pausedUntil(hub, connection))
                var next = floor + span
                try connection.query(
                    """
                    INSERT INTO pace (key, next_slot, paused_until) VALUES (?1, ?2, 0)
                    ON CONFLICT (key) DO UPDATE SET next_slot = max(next_slot, ?3) + ?4 RETURNING next_slot
                    """,
                    bind: { (statement) throws(RunStoreError) in
                        try statement.bind(1, budget.key)
                        try statement.bind(2, floor + span)
                        try statement.bind(3, floor)
                        try statement.bind(4, span)
                    }, row: { (row) throws(RunStoreError) in next = row.double(0) })
                return max(0, next - span - now)
            }
        }
    }

    package func pause(hub: String, seconds: Double) async {
        guard seconds > 0, seconds.isFinite else { return }
        let until = Date().timeIntervalSince1970 + seconds
        _ = try? await withConnection { (connection) throws(RunStoreError) -> Int in
            try connection.execute(
                """
                INSERT INTO pace (key, next_slot, paused_until) VALUES (?1, 0, ?2)
                ON CONFLICT (key) DO UPDATE SET paused_until = max(paused_until, ?2)
                """
            ) { (statement) throws(RunStoreError) in
                try statement.bind(1, "pause \(hub)")
                try statement.bind(2, until)
            }
        }
    }

    /// When `hub`'s recorded pause ends, in epoch seconds; 0 for none.
    private static func pausedUntil(_ hub: String, _ connection: SQLiteConnection) throws(RunStoreError) -> Double {
        var until = 0.0
        try connection.query(
            "SELECT paused_until FROM pace WHERE key = ?1",
            bind: { (statement) throws(RunStoreError) in
                try statement.bind(1, "pause \(hub)")
            }, row: { (row) throws(RunStoreError) in until = row.double(0) })
        return until
    }
}
