import Logging
import PipelineCore
import PostgresNIO
import RunStore

/// The store's tables, in the schema `pushline`, and how an older database is brought up to date.
///
/// The version lives in `pushline.meta`. Preparing takes a transaction-level advisory lock first, so four
/// shards starting at once against an empty database create the tables once and the others wait and see them.
/// A database written by a newer pushline is refused, never altered.
enum PostgresSchema {
    /// The version this build writes and reads.
    static let version = 7

    /// The advisory lock key that serialises schema changes (an arbitrary constant: "pushline" in ASCII).
    static let migrationLock: Int64 = 0x70_75_73_68_6c_69_6e_65

    /// Version 1: runs, items and locks as the SQLite journal keeps them (its version 2), with native types.
    ///
    /// `row` is quoted: it is a keyword in PostgreSQL. `items` is keyed by (run, step, row) like the SQLite
    /// table; the partial index on idempotency keys serves the per-item duplicate check. `locks` holds each
    /// lock's current holder and its epoch, which a ledger write checks to fence out a holder that lost its
    /// lock (`PostgresRunLock`).
    static let version1 = [
        "CREATE SCHEMA IF NOT EXISTS pushline",
        "CREATE TABLE pushline.meta (key text PRIMARY KEY, value text NOT NULL)",
        """
        CREATE TABLE pushline.runs (
            seq bigserial PRIMARY KEY,
            id text NOT NULL UNIQUE,
            identity text NOT NULL,
            pipeline text NOT NULL,
            started_at double precision NOT NULL,
            ended_at double precision,
            resumed_at double precision,
            status text NOT NULL,
            pid integer NOT NULL,
            exit_code integer,
            resumes integer NOT NULL DEFAULT 0,
            summary text
        )
        """,
        "CREATE INDEX runs_by_identity ON pushline.runs (identity, started_at)",
        "CREATE INDEX runs_by_start ON pushline.runs (started_at)",
        """
        CREATE TABLE pushline.items (
            run bigint NOT NULL REFERENCES pushline.runs (seq) ON DELETE CASCADE,
            step integer NOT NULL,
            "row" integer NOT NULL,
            step_id text NOT NULL,
            origin text NOT NULL,
            digest text NOT NULL,
            state text NOT NULL,
            attempts integer NOT NULL DEFAULT 0,
            notification_id text,
            error text,
            retriable boolean NOT NULL DEFAULT false,
            updated_at double precision NOT NULL,
            idempotency_key text,
            target text,
            resolution text,
            PRIMARY KEY (run, step, "row")
        )
        """,
        "CREATE INDEX items_by_key ON pushline.items (idempotency_key, updated_at) WHERE idempotency_key IS NOT NULL",
        """
        CREATE TABLE pushline.locks (
            name text PRIMARY KEY,
            epoch bigint NOT NULL,
            pid integer NOT NULL,
            host text NOT NULL,
            started_at double precision NOT NULL
        )
        """,
        "INSERT INTO pushline.meta (key, value) VALUES ('schema_version', '1')",
    ]

    /// Version 2: shards. A run of `pushline run --shard I/N` records its part (`2/4`); NULL is a run of every row.
    static let version2 = [
        "ALTER TABLE pushline.runs ADD COLUMN shard text",
    ]

    /// Version 3: the pace shared by the processes sending to a hub (`PostgresStore+Pace`): hubs' pauses after
    /// throttling and the next free slot of each send budget, in the database server's seconds.
    static let version3 = [
        """
        CREATE TABLE pushline.pace (
            key text PRIMARY KEY,
            next_slot double precision NOT NULL DEFAULT 0,
            paused_until double precision NOT NULL DEFAULT 0
        )
        """,
    ]

    /// Version 4: generations (`RunRecord.generation`): each `--again` of a split run's part that already ran opens
    /// the next, so `runs show` keeps the parts of one start together.
    static let version4 = [
        "ALTER TABLE pushline.runs ADD COLUMN generation integer NOT NULL DEFAULT 0",
    ]

    /// Version 5: pipelines by name (`PipelineName`), not by path, as the SQLite journal's version 6.
    ///
    /// `runs.pipeline` holds the pipeline's name and `runs.path` the file it was last read from; a run recorded under a
    /// path is renamed between the two halves (`namePipelines`). `pipelines` remembers where each name was last read
    /// from; `runs.dedupe_window` is the longest dedupe window of the run's steps, which pruning keeps; `skips` holds the
    /// rows a run left to the run that had sent them, as ranges. A declared idempotency key is filed under its pipeline
    /// (`name/step2:key`); default keys name their hub and stay as they are.
    static let version5 = [
        "ALTER TABLE pushline.runs ADD COLUMN path text",
        "ALTER TABLE pushline.runs ADD COLUMN dedupe_window double precision",
        "UPDATE pushline.runs SET path = pipeline",
    ]

    /// The second half of version 5, after the runs are named.
    static let version5After = [
        "CREATE INDEX runs_by_pipeline ON pushline.runs (pipeline, status)",
        """
        CREATE TABLE pushline.pipelines (
            name text PRIMARY KEY,
            path text NOT NULL,
            content text,
            declared boolean NOT NULL DEFAULT false,
            seen_at double precision NOT NULL
        )
        """,
        """
        INSERT INTO pushline.pipelines (name, path, content, declared, seen_at)
            SELECT DISTINCT ON (pipeline) pipeline, path, NULL, false, started_at FROM pushline.runs
            ORDER BY pipeline, started_at DESC, seq DESC
        """,
        """
        CREATE TABLE pushline.skips (
            run bigint NOT NULL REFERENCES pushline.runs (seq) ON DELETE CASCADE,
            step integer NOT NULL,
            first_row integer NOT NULL,
            last_row integer NOT NULL,
            step_id text NOT NULL,
            origin text NOT NULL,
            first_line integer,
            prior_run text NOT NULL,
            prior_step integer NOT NULL,
            prior_first_row integer NOT NULL,
            PRIMARY KEY (run, step, first_row)
        )
        """,
        "CREATE INDEX skips_by_prior ON pushline.skips (prior_run, prior_step, prior_first_row)",
        """
        UPDATE pushline.items AS i SET idempotency_key = r.pipeline || '/' || i.idempotency_key
            FROM pushline.runs AS r
            WHERE r.seq = i.run AND i.idempotency_key IS NOT NULL AND left(i.idempotency_key, 8) <> 'request:'
                AND left(i.idempotency_key, 7) <> 'device:'
        """,
    ]

    /// Renames every run's pipeline from the path it was recorded under to the name that file goes by.
    static func namePipelines(_ connection: PostgresConnection, logger: Logger) async throws {
        var paths: [String] = []
        for try await row in try await connection.query("SELECT DISTINCT pipeline FROM pushline.runs", logger: logger) {
            paths.append(try row.decode(String.self))
        }
        for path in paths {
            let name = StoredText.encode(PipelineName.fromFile(StoredText.decode(path)))
            try await connection.query("UPDATE pushline.runs SET pipeline = \(name) WHERE pipeline = \(path)", logger: logger)
        }
    }

    /// A description of a lock another session of this database holds (a run still going), or nil.
    static func heldLock(_ connection: PostgresConnection, logger: Logger) async throws -> String? {
        let rows = try await connection.query("""
            SELECT l.pid FROM pg_locks AS l WHERE l.locktype = 'advisory' AND l.granted AND l.pid <> pg_backend_pid()
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) LIMIT 1
            """, logger: logger)
        for try await row in rows { return "server process \(try row.decode(Int.self)) holds a run lock" }
        return nil
    }

    /// Version 6: steps a run completed, with their one line and outputs (JSON), so a resumed run reads them back
    /// instead of running the step again, and `runs show` prints them (the SQLite journal's version 8).
    static let version6 = [
        """
        CREATE TABLE pushline.steps (
            run bigint NOT NULL REFERENCES pushline.runs (seq) ON DELETE CASCADE,
            step integer NOT NULL,
            step_id text NOT NULL,
            summary text NOT NULL,
            outputs text NOT NULL,
            PRIMARY KEY (run, step)
        )
        """,
    ]

    /// Version 7: rows a step produced (a query's), spooled for the steps that read them, as the SQLite journal's
    /// version 9 keeps them.
    static let version7 = [
        """
        CREATE TABLE pushline.spools (
            id bigserial PRIMARY KEY,
            run bigint NOT NULL REFERENCES pushline.runs (seq) ON DELETE CASCADE,
            pipeline text NOT NULL,
            identity text NOT NULL,
            generation integer NOT NULL,
            step integer NOT NULL,
            source text NOT NULL,
            state integer NOT NULL,
            columns text,
            count bigint,
            digest text,
            started_at double precision NOT NULL,
            completed_at double precision
        )
        """,
        "CREATE UNIQUE INDEX spools_by_run ON pushline.spools (identity, generation, step, source)",
        "CREATE INDEX spools_by_source ON pushline.spools (pipeline, step, source, completed_at)",
        """
        CREATE TABLE pushline.spool_rows (
            spool bigint NOT NULL REFERENCES pushline.spools (id) ON DELETE CASCADE,
            number bigint NOT NULL,
            line text NOT NULL,
            PRIMARY KEY (spool, number)
        )
        """,
    ]

    /// Migrations by the version they lead to; `migrations[v]` brings version v − 1 to v (with `version5After` after
    /// the runs are named, for 5).
    static let migrations: [Int: [String]] = [1: version1, 2: version2, 3: version3, 4: version4, 5: version5, 6: version6, 7: version7]

    /// Creates or migrates the schema on `connection`.
    static func prepare(_ connection: PostgresConnection, location: String) async throws(RunStoreError) {
        let logger = Logger(label: "pushline.run-store", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            // Most opens find the schema current: one read, no lock.
            if try await currentVersion(connection, logger: logger) == version { return }
            try await connection.query("BEGIN", logger: logger)
            do {
                try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
                var found = try await currentVersion(connection, logger: logger)
                if found > version {
                    throw RunStoreError("the run store at \(location) has schema version \(found), newer than this pushline "
                        + "understands (\(version)); use a newer pushline or another database", kind: .configuration)
                }
                if found < 0 {
                    throw RunStoreError("the run store at \(location) has an invalid schema version", kind: .configuration)
                }
                if found == 0, try await hasForeignTables(connection, logger: logger) {
                    throw RunStoreError("the schema 'pushline' at \(location) has tables but no pushline schema version; "
                        + "it is not a pushline run store (use another database)", kind: .configuration)
                }
                if found > 0, found < version, let held = try await heldLock(connection, logger: logger) {
                    // A run of the older pushline would go on writing in the old way beside the new schema.
                    throw RunStoreError("the run store at \(location) is from an older pushline and a run is still going (\(held)); "
                        + "it is upgraded once no run holds a lock: wait for it to end, then start again", kind: .unavailable)
                }
                while found < version {
                    found += 1
                    for statement in migrations[found] ?? [] {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    if found == 5 {
                        try await namePipelines(connection, logger: logger)
                        for statement in version5After {
                            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                        }
                    }
                    try await connection.query(
                        "UPDATE pushline.meta SET value = \(String(found)) WHERE key = 'schema_version'", logger: logger)
                }
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        } catch {
            throw PostgresFailure.storeError(error, location: location, doing: "preparing the schema")
        }
    }

    /// Whether the database has pushline's schema, and it is one this build reads.
    static func exists(_ connection: PostgresConnection, location: String) async throws(RunStoreError) -> Bool {
        let logger = Logger(label: "pushline.run-store", factory: { _ in SwiftLogNoOpLogHandler() })
        let found: Int
        do {
            found = try await currentVersion(connection, logger: logger)
        } catch {
            throw PostgresFailure.storeError(error, location: location, doing: "reading the schema version")
        }
        if found > version {
            throw RunStoreError("the run store at \(location) has schema version \(found), newer than this pushline "
                + "understands (\(version)); use a newer pushline or another database", kind: .configuration)
        }
        return found == version
    }

    /// The version in `pushline.meta`; 0 when there is no such table.
    private static func currentVersion(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        // pg_tables, not to_regclass: the catalog cache of a session that waited on an advisory lock may not have
        // seen the tables another session created meanwhile; a query on the catalog reads them with a fresh snapshot.
        let exists = try await connection.query(
            "SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = 'pushline' AND tablename = 'meta')", logger: logger)
        var present = false
        for try await row in exists { present = try row.decode(Bool.self) }
        guard present else { return 0 }
        let rows = try await connection.query("SELECT value FROM pushline.meta WHERE key = 'schema_version'", logger: logger)
        var found = 0
        for try await row in rows {
            let text = try row.decode(String.self)
            guard let number = Int(text) else { return -1 }
            found = number
        }
        return found
    }

    /// Whether the schema `pushline` exists with tables in it (someone else's).
    private static func hasForeignTables(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.query(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'pushline'", logger: logger)
        var count = 0
        for try await row in rows { count = try row.decode(Int.self) }
        return count > 0
    }
}
