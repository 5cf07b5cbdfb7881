import Foundation
import PipelineCore
import RunStore

/// Settling items of unknown fate by hand, and finding items again: what `runs resolve` and `runs find` do to a
/// journal.
struct JournalSettlement: Sendable {
    let journal: Journal

    /// Settles the run's unknown (and stale `sending`) items, of one step (`step`, 0-based as the journal
    /// keys it; nil for all) and rows within `rows` (empty for all), as `resolution`, recording who did it,
    /// when and why in each item's `resolution`. A `partial` run left with no failed, unknown or bad item
    /// becomes `completed` (exit code 0). One transaction.
    func resolve(
        run id: String, as resolution: Resolution, step: Int?, rows: [ClosedRange<Int>], by who: String, note: String?,
        now: Double
    ) async throws(RunStoreError) -> Resolved {
        let when = RunID.iso(now)
        // NUL becomes U+FFFD, as in the PostgreSQL store (whose text cannot hold it), so both keep the same record.
        let text = ("\(resolution.rawValue): settled by \(who) at \(when)" + (note.map { ": \($0)" } ?? ""))
            .replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
        let ranges = rows.isEmpty ? [1...Int.max] : rows
        return try await journal.withConnection { (connection) throws(RunStoreError) -> Resolved in
            try connection.transaction { () throws(RunStoreError) -> Resolved in
                var seq: Int64?
                var status = ""
                try connection.query(
                    "SELECT seq, status FROM runs WHERE id = ?1",
                    bind: { (statement) throws(RunStoreError) in
                        try statement.bind(1, id)
                    }
                ) { (row) throws(RunStoreError) in
                    seq = row.int64(0)
                    status = row.text(1) ?? ""
                }
                guard let seq else {
                    throw RunStoreError("there is no run \(id) in the run journal at \(journal.path)")
                }
                var settled = 0
                for range in ranges {
                    settled += try connection.execute(
                        """
                        UPDATE items SET
                            state = CASE ?2 WHEN 'delivered' THEN \(StoredState.code(.accepted)) ELSE \(StoredState.code(.failed)) END,
                            retriable = CASE ?2 WHEN 'delivered' THEN 0 ELSE 1 END,
                            resolution = ?3 || coalesce(' (was unknown: ' || error || ')', ''),
                            error = CASE ?2 WHEN 'delivered' THEN NULL ELSE 'to be sent again: ' || ?3 END,
                            updated_at = ?4
                        WHERE run = ?1 AND state IN \(StoredState.sql(.unknown, .sending)) AND (?5 < 0 OR step = ?5) AND row BETWEEN ?6 AND ?7
                        """
                    ) { (statement) throws(RunStoreError) in
                        try statement.bind(1, seq)
                        try statement.bind(2, resolution.rawValue)
                        try statement.bind(3, text)
                        try statement.bind(4, now.rounded(.up))
                        try statement.bind(5, Int64(step ?? -1))
                        try statement.bind(6, Int64(range.lowerBound))
                        try statement.bind(7, Int64(clamping: range.upperBound))
                    }
                }
                var remaining = 0
                try connection.query(
                    """
                    SELECT count(*) FROM items WHERE run = ?1 AND state IN \(StoredState.sql(.failed, .unknown, .sending, .bad, .pending))
                    """, bind: { (statement) throws(RunStoreError) in try statement.bind(1, seq) }
                ) { (row) throws(RunStoreError) in
                    remaining = row.int(0)
                }
                // Only a partial run ran to its end, so only then is every item in the journal: an interrupted
                // or abandoned run has rows it never reached.
                let completes = remaining == 0 && status == RunStatus.partial.rawValue && settled > 0
                if completes {
                    try connection.execute("UPDATE runs SET status = 'completed', exit_code = 0 WHERE seq = ?1") {
                        (statement) throws(RunStoreError) in
                        try statement.bind(1, seq)
                    }
                }
                return Resolved(settled: settled, remaining: remaining, completed: completes)
            }
        }
    }

    /// Items whose idempotency key (with or without its step scope) or origin is `text`, or whose target (audience, handle, installation id)
    /// holds `text` as a whole word (`u0203` finds `$UserId:{u0203}`, not `u02031`), newest first, at most
    /// `limit`; only of `pipeline`'s runs when given, and only those written at or after `since`.
    func find(_ text: String, pipeline: String?, since: Double?, limit: Int) async throws(RunStoreError)
        -> [FoundItem]
    {
        guard !text.isEmpty, limit > 0 else { return [] }
        return try await journal.withConnection { (connection) throws(RunStoreError) -> [FoundItem] in
            var found: [FoundItem] = []
            // The text as the journal stores a default key, and as a row's origin (`OriginFiles`), when it is one.
            let originLine = try connection.originFiles.existingLine(of: text, connection)
            try connection.query(
                """
                SELECT r.id, r.pipeline, \(JournalRows.itemColumns("i"))
                FROM items AS i JOIN runs AS r ON r.seq = i.run
                WHERE (i.idempotency_key = ?1 OR i.idempotency_key = ?4 OR substr(i.idempotency_key, instr(i.idempotency_key, ':') + 1) = ?1
                       OR substr(i.idempotency_key, instr(i.idempotency_key, '/') + 1) = ?1 OR i.origin = ?1 OR i.origin = ?5
                       OR (typeof(i.origin) = 'integer' AND i.origin >> 8 = ?6 AND i.row + (i.origin & 255) = ?7)
                       OR instr(pushline_target(i.target), ?1) > 0)
                    AND (?2 IS NULL OR r.pipeline = ?2) AND i.updated_at >= ?3
                ORDER BY i.updated_at DESC, i.run DESC, i.step, i.row
                """,
                bind: { (statement) throws(RunStoreError) in
                    try statement.bind(1, text)
                    try statement.bind(2, pipeline)
                    try statement.bind(3, since ?? -Double.greatestFiniteMagnitude)
                    try statement.bindCompact(4, text, key: true)
                    try statement.bind(5, bytes: originLine.map { OriginFiles.bytes($0.id << 32 | $0.line) })
                    try statement.bind(6, originLine?.id)
                    try statement.bind(7, originLine?.line)
                }
            ) { (row) throws(RunStoreError) in
                guard found.count < limit else { return }
                let item = try JournalRows.item(row, connection, from: 2)
                guard FindMatch.matches(item, text) else { return }
                found.append(FoundItem(runId: row.text(0) ?? "", pipeline: row.text(1) ?? "", item: item))
            }
            // Rows later runs skipped because one of these had sent them are journalled as ranges: listed before it.
            var withSkips: [FoundItem] = []
            for match in found {
                if match.item.state == .accepted {
                    withSkips += try JournalRows.skipped(
                        as: match.item, of: match.runId, pipeline: pipeline, since: since, connection)
                }
                withSkips.append(match)
            }
            return Array(withSkips.prefix(limit))
        }
    }
}
