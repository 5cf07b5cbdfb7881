import PipelineCore
import RunStore

/// Starting, resuming, finishing and finding runs.
extension Journal {
    /// The newest run with this identity (a hex digest computed by the caller) that is `shard`, or nil.
    package func latestRun(identity: String, shard: Shard?) async throws(RunStoreError) -> RunRecord? {
        try await withConnection { (connection) throws(RunStoreError) -> RunRecord? in
            // seq (insertion order) breaks ties between runs started in the same instant.
            try Self.runs(connection, "WHERE identity = ?1 AND shard IS ?2 ORDER BY started_at DESC, seq DESC LIMIT 1")
            {
                (statement) throws(RunStoreError) in
                try statement.bind(1, identity)
                try statement.bind(2, shard?.description)
            }.first
        }
    }

    /// Runs of `pipeline` marked running (live or abandoned), newest first, at most `limit`.
    package func runningRuns(pipeline: String, limit: Int) async throws(RunStoreError) -> [RunRecord] {
        guard limit > 0 else { return [] }
        return try await withConnection { (connection) throws(RunStoreError) -> [RunRecord] in
            try Self.runs(
                connection, "WHERE pipeline = ?1 AND status = 'running' ORDER BY started_at DESC, seq DESC LIMIT ?2"
            ) {
                (statement) throws(RunStoreError) in
                try statement.bind(1, pipeline)
                try statement.bind(2, Int64(limit))
            }
        }
    }

    /// Every run with this identity, whatever its shard, newest first, at most `limit`.
    package func runs(identity: String, limit: Int) async throws(RunStoreError) -> [RunRecord] {
        guard limit > 0 else { return [] }
        return try await withConnection { (connection) throws(RunStoreError) -> [RunRecord] in
            try Self.runs(connection, "WHERE identity = ?1 ORDER BY started_at DESC, seq DESC LIMIT ?2") {
                (statement) throws(RunStoreError) in
                try statement.bind(1, identity)
                try statement.bind(2, Int64(limit))
            }
        }
    }

    /// Starts a new run of the pipeline named `pipeline`, read from `path`, in `generation`, keeping its items' keys at
    /// least `dedupeWindow` seconds after it ends.
    package func startRun(
        identity: String, pipeline: String, path: String?, shard: Shard?, generation: Int, dedupeWindow: Double?,
        pid: Int32, now: Double
    ) async throws(RunStoreError) -> RunRecord {
        try await withConnection { (connection) throws(RunStoreError) -> RunRecord in
            // Two runs started in the same second collide only if they also draw the same 24 random bits;
            // DO NOTHING plus a fresh draw handles that without ever overwriting another run.
            for _ in 0..<16 {
                let id = RunID.make(startedAt: now)
                let inserted = try connection.execute(
                    """
                    INSERT INTO runs (id, identity, pipeline, started_at, status, pid, resumes, shard, generation, path, dedupe_window)
                    VALUES (?1, ?2, ?3, ?4, 'running', ?5, 0, ?6, ?7, ?8, ?9) ON CONFLICT (id) DO NOTHING
                    """
                ) { (statement) throws(RunStoreError) in
                    try statement.bind(1, id)
                    try statement.bind(2, identity)
                    try statement.bind(3, pipeline)
                    try statement.bind(4, now)
                    try statement.bind(5, Int64(pid))
                    try statement.bind(6, shard?.description)
                    try statement.bind(7, Int64(generation))
                    try statement.bind(8, path)
                    try statement.bind(9, dedupeWindow)
                }
                if inserted == 1 {
                    return RunRecord(
                        id: id, identity: identity, pipeline: pipeline, startedAt: now, status: .running, pid: pid,
                        shard: shard,
                        generation: generation, path: path, dedupeWindow: dedupeWindow)
                }
            }
            throw RunStoreError("could not choose a unique run id in the run journal at \(self.path)")
        }
    }

    /// Resumes a run as `resumeRun(id:pid:now:)` does, recording `path` (when given) as where it is read from now.
    package func resumeRun(id: String, path: String?, pid: Int32, now: Double) async throws(RunStoreError) -> RunRecord
    {
        try await withConnection { (connection) throws(RunStoreError) -> RunRecord in
            // One transaction, so the record returned is exactly the one this call wrote.
            try connection.transaction { () throws(RunStoreError) -> RunRecord in
                let changed = try connection.execute(
                    """
                    UPDATE runs SET status = 'running', pid = ?2, resumed_at = ?3, resumes = resumes + 1,
                        ended_at = NULL, exit_code = NULL, summary = NULL, path = coalesce(?4, path)
                    WHERE id = ?1
                    """
                ) { (statement) throws(RunStoreError) in
                    try statement.bind(1, id)
                    try statement.bind(2, Int64(pid))
                    try statement.bind(3, now)
                    try statement.bind(4, path)
                }
                guard changed == 1,
                    let record = try Self.runs(
                        connection, "WHERE id = ?1",
                        bind: { (statement) throws(RunStoreError) in
                            try statement.bind(1, id)
                        }
                    ).first
                else { throw noSuchRun(id) }
                // The rows an earlier attempt skipped as already sent are not journalled one by one, so the resume reads
                // them again and records them afresh: what it finds now, never an earlier range beside a row it sends.
                try connection.execute("DELETE FROM skips WHERE run = (SELECT seq FROM runs WHERE id = ?1)") {
                    (statement) throws(RunStoreError) in
                    try statement.bind(1, id)
                }
                return record
            }
        }
    }

    /// Ends a run: status (`.completed`, `.partial`, `.failed`, `.interrupted`), exit code, end time, and an
    /// optional JSON summary text. Throws if there is no run with this id or `state` is `.running`.
    package func finishRun(id: String, state: RunStatus, exitCode: Int32, summary: String?, now: Double)
        async throws(RunStoreError)
    {
        guard state != .running else {
            throw RunStoreError("run \(id) cannot finish as running (run journal at \(path))")
        }
        try await withConnection { (connection) throws(RunStoreError) in
            let changed = try connection.execute(
                """
                UPDATE runs SET status = ?2, exit_code = ?3, ended_at = ?4, summary = ?5 WHERE id = ?1
                """
            ) { (statement) throws(RunStoreError) in
                try statement.bind(1, id)
                try statement.bind(2, state.rawValue)
                try statement.bind(3, Int64(exitCode))
                try statement.bind(4, now)
                try statement.bind(5, summary)
            }
            guard changed == 1 else { throw noSuchRun(id) }
        }
    }

    /// Runs, newest first, at most `limit` (none when `limit` is not positive).
    package func runs(limit: Int) async throws(RunStoreError) -> [RunRecord] {
        guard limit > 0 else { return [] }
        return try await withConnection { (connection) throws(RunStoreError) -> [RunRecord] in
            try Self.runs(connection, "ORDER BY started_at DESC, seq DESC LIMIT ?1") {
                (statement) throws(RunStoreError) in
                try statement.bind(1, Int64(limit))
            }
        }
    }

    /// The run whose id equals `id`, or the only run whose id starts with `id`; nil if there is none (or
    /// `id` is empty). Throws a `RunStoreError` listing the candidates if the prefix is ambiguous.
    package func run(matching id: String) async throws(RunStoreError) -> RunRecord? {
        guard !id.isEmpty else { return nil }
        return try await withConnection { (connection) throws(RunStoreError) -> RunRecord? in
            let bindID = { (statement: SQLiteStatement) throws(RunStoreError) in try statement.bind(1, id) }
            if let exact = try Self.runs(connection, "WHERE id = ?1", bind: bindID).first { return exact }
            // substr, not LIKE: `_` and `%` in what a person typed must match themselves.
            let candidates = try Self.runs(
                connection,
                "WHERE substr(id, 1, length(?1)) = ?1 ORDER BY started_at DESC, seq DESC",
                bind: bindID)
            guard candidates.count <= 1 else {
                let shown = candidates.prefix(5).map(\.id).joined(separator: ", ")
                let more = candidates.count > 5 ? ", …" : ""
                throw RunStoreError(
                    "'\(id)' matches \(candidates.count) runs in the run journal at \(path) "
                        + "(\(shown)\(more)); give more of the id")
            }
            return candidates.first
        }
    }

    private func noSuchRun(_ id: String) -> RunStoreError {
        RunStoreError("there is no run \(id) in the run journal at \(path)")
    }

    /// Runs selected by `clause` (WHERE / ORDER BY / LIMIT), in the order it gives.
    private static func runs(
        _ connection: SQLiteConnection, _ clause: String,
        bind: (SQLiteStatement) throws(RunStoreError) -> Void
    ) throws(RunStoreError) -> [RunRecord] {
        var found: [RunRecord] = []
        try connection.query(
            """
            SELECT id, identity, pipeline, started_at, ended_at, resumed_at, status, pid, exit_code, resumes, summary, shard, generation,
                path, dedupe_window
            FROM runs
            """ + " " + clause, bind: bind
        ) { (row) throws(RunStoreError) in
            let id = row.text(0) ?? ""
            let statusText = row.text(6) ?? ""
            guard let status = RunStatus(rawValue: statusText) else {
                throw RunStoreError(
                    "run \(id) has an unknown status '\(statusText)' in the run journal at \(connection.path)")
            }
            found.append(
                RunRecord(
                    id: id, identity: row.text(1) ?? "", pipeline: row.text(2) ?? "", startedAt: row.double(3),
                    endedAt: row.optionalDouble(4), resumedAt: row.optionalDouble(5), status: status, pid: row.int32(7),
                    exitCode: row.optionalInt32(8), resumes: row.int(9), summary: row.text(10),
                    shard: row.text(11).flatMap(Shard.init),
                    generation: row.int(12), path: row.text(13), dedupeWindow: row.optionalDouble(14)))
        }
        return found
    }
}
