import PipelineCore
import PostgresNIO
import RunStore

/// Starting, resuming, finishing and finding runs.
extension PostgresStore {
    package func latestRun(identity: String, shard: Shard?) async throws(RunStoreError) -> RunRecord? {
        try await withConnection("reading runs") { connection in
            try await Self.runs(
                connection, logger: self.logger,
                """
                WHERE identity = \(identity) AND shard IS NOT DISTINCT FROM \(shard?.description) ORDER BY started_at DESC, seq DESC LIMIT 1
                """
            ).first
        }
    }

    package func runs(identity: String, limit: Int) async throws(RunStoreError) -> [RunRecord] {
        guard limit > 0 else { return [] }
        return try await withConnection("reading runs") { connection in
            try await Self.runs(
                connection, logger: self.logger,
                """
                WHERE identity = \(identity) ORDER BY started_at DESC, seq DESC LIMIT \(limit)
                """)
        }
    }

    package func runningRuns(pipeline: String, limit: Int) async throws(RunStoreError) -> [RunRecord] {
        guard limit > 0 else { return [] }
        return try await withConnection("reading runs") { connection in
            try await Self.runs(
                connection, logger: self.logger,
                """
                WHERE pipeline = \(pipeline) AND status = 'running' ORDER BY started_at DESC, seq DESC LIMIT \(limit)
                """)
        }
    }

    package func startRun(
        identity: String, pipeline: String, path: String?, shard: Shard?, generation: Int, dedupeWindow: Double?,
        pid: Int32, now: Double
    ) async throws(RunStoreError) -> RunRecord {
        let found: RunRecord? = try await withConnection("starting a run") { connection in
            // Two runs started in the same second collide only if they also draw the same 24 random bits;
            // DO NOTHING plus a fresh draw handles that without ever overwriting another run.
            for _ in 0..<16 {
                let id = RunID.make(startedAt: now)
                let rows = try await connection.query(
                    """
                    INSERT INTO pushline.runs (id, identity, pipeline, started_at, status, pid, resumes, shard, generation, path, dedupe_window)
                    VALUES (\(id), \(identity), \(pipeline), \(now), 'running', \(Int(pid)), 0, \(shard?.description), \(generation),
                            \(StoredText.encode(path)), \(dedupeWindow))
                    ON CONFLICT (id) DO NOTHING RETURNING seq
                    """, logger: self.logger)
                for try await _ in rows {
                    return RunRecord(
                        id: id, identity: identity, pipeline: pipeline, startedAt: now, status: .running, pid: pid,
                        shard: shard,
                        generation: generation, path: path, dedupeWindow: dedupeWindow)
                }
            }
            return nil
        }
        guard let found else { throw RunStoreError("could not choose a unique run id in the run store at \(location)") }
        return found
    }

    package func resumeRun(id: String, path: String?, pid: Int32, now: Double, lock: (any RunLock)?)
        async throws(RunStoreError) -> RunRecord
    {
        let fence = (lock as? PostgresRunLock)?.fence
        let record: RunRecord? = try await transaction("resuming a run") { connection in
            try await self.checkFence(fence, connection)
            let record = try await Self.runs(
                connection, logger: self.logger,
                """
                WHERE id = \(id)
                """,
                update: """
                    UPDATE pushline.runs SET status = 'running', pid = \(Int(pid)), resumed_at = \(now), resumes = resumes + 1,
                        ended_at = NULL, exit_code = NULL, summary = NULL, path = coalesce(\(StoredText.encode(path)), path)
                    WHERE id = \(id)
                    """
            ).first
            // The rows an earlier attempt skipped as already sent are not journalled one by one: the resume reads them
            // again and records them afresh, never an earlier range beside a row it now sends.
            try await connection.query(
                "DELETE FROM pushline.skips WHERE run = (SELECT seq FROM pushline.runs WHERE id = \(id))",
                logger: self.logger)
            return record
        }
        guard let record else { throw noSuchRun(id) }
        return record
    }

    package func finishRun(
        id: String, state: RunStatus, exitCode: Int32, summary: String?, now: Double,
        lock: (any RunLock)?
    ) async throws(RunStoreError) {
        guard state != .running else {
            throw RunStoreError("run \(id) cannot finish as running (run store at \(location))")
        }
        let fence = (lock as? PostgresRunLock)?.fence
        let changed = try await transaction("finishing a run") { connection in
            try await self.checkFence(fence, connection)
            let rows = try await connection.query(
                """
                UPDATE pushline.runs SET status = \(state.rawValue), exit_code = \(Int(exitCode)), ended_at = \(now), summary = \(summary)
                WHERE id = \(id) RETURNING seq
                """, logger: self.logger)
            var count = 0
            for try await _ in rows { count += 1 }
            return count
        }
        guard changed == 1 else { throw noSuchRun(id) }
    }

    package func runs(limit: Int) async throws(RunStoreError) -> [RunRecord] {
        guard limit > 0 else { return [] }
        return try await withConnection("listing runs") { connection in
            try await Self.runs(connection, logger: self.logger, "ORDER BY started_at DESC, seq DESC LIMIT \(limit)")
        }
    }

    package func run(matching id: String) async throws(RunStoreError) -> RunRecord? {
        guard !id.isEmpty else { return nil }
        let candidates = try await withConnection("finding a run") { connection in
            if let exact = try await Self.runs(connection, logger: self.logger, "WHERE id = \(id)").first {
                return [exact]
            }
            // left(), not LIKE: `_` and `%` in what a person typed must match themselves.
            return try await Self.runs(
                connection, logger: self.logger,
                """
                WHERE left(id, length(\(id))) = \(id) ORDER BY started_at DESC, seq DESC
                """)
        }
        guard candidates.count <= 1 else {
            let shown = candidates.prefix(5).map(\.id).joined(separator: ", ")
            let more = candidates.count > 5 ? ", …" : ""
            throw RunStoreError(
                "'\(id)' matches \(candidates.count) runs in the run store at \(location) (\(shown)\(more)); give more of the id"
            )
        }
        return candidates.first
    }

    func noSuchRun(_ id: String) -> RunStoreError {
        RunStoreError("there is no run \(id) in the run store at \(location)")
    }

    /// The columns `record(_:)` reads, in its order.
    static let runColumns =
        "id, identity, pipeline, started_at, ended_at, resumed_at, status, pid, exit_code, resumes, summary, shard, generation, "
        + "path, dedupe_window"

    /// Runs selected by `clause` (WHERE / ORDER BY / LIMIT) in the order it gives; with `update`, that statement
    /// runs first and the runs it changed are returned (`RETURNING`).
    static func runs(
        _ connection: PostgresConnection, logger: Logger, _ clause: PostgresQuery,
        update: PostgresQuery? = nil
    ) async throws -> [RunRecord] {
        let query: PostgresQuery
        if let update {
            query = PostgresQuery(unsafeSQL: update.sql + " RETURNING " + runColumns, binds: update.binds)
        } else {
            query = PostgresQuery(
                unsafeSQL: "SELECT \(runColumns) FROM pushline.runs " + clause.sql, binds: clause.binds)
        }
        var found: [RunRecord] = []
        for try await row in try await connection.query(query, logger: logger) {
            let (
                id, identity, pipeline, startedAt, endedAt, resumedAt, statusText, pid, exitCode, resumes, summary,
                shard, generation, path,
                dedupeWindow
            ) = try row.decode(
                (
                    String, String, String, Double, Double?, Double?, String, Int, Int?, Int, String?, String?, Int,
                    String?, Double?
                ).self)
            guard let status = RunStatus(rawValue: statusText) else {
                throw RunStoreError("run \(id) has an unknown status '\(statusText)'")
            }
            found.append(
                RunRecord(
                    id: id, identity: identity, pipeline: pipeline, startedAt: startedAt, endedAt: endedAt,
                    resumedAt: resumedAt, status: status, pid: Int32(clamping: pid),
                    exitCode: exitCode.map { Int32(clamping: $0) },
                    resumes: resumes, summary: summary, shard: shard.flatMap(Shard.init), generation: generation,
                    path: StoredText.decode(path), dedupeWindow: dedupeWindow))
        }
        return found
    }
}
