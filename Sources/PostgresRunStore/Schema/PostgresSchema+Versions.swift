/// The store's tables as each version made them: the statements `PostgresSchema.prepare` runs, in order, on a new or
/// older database.
extension PostgresSchema {
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
        "ALTER TABLE pushline.runs ADD COLUMN shard text"
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
        """
    ]

    /// Version 4: generations (`RunRecord.generation`): each `--again` of a split run's part that already ran opens
    /// the next, so `runs show` keeps the parts of one start together.
    static let version4 = [
        "ALTER TABLE pushline.runs ADD COLUMN generation integer NOT NULL DEFAULT 0"
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
        """
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

    /// Version 8: a group commit's claim in one call, and the items that could be an idempotency key's prior send as a
    /// function of their own.
    ///
    /// `candidates`: asked as a prepared statement, the keys a parameter, the planner could not tell that keys are nearly
    /// unique until the table's first ANALYZE (autovacuum's, a minute or more into a first run), and read the whole
    /// table once per group instead of the key index. The function's `SET enable_seqscan = off` leaves the index its
    /// plan whatever the statistics; plpgsql keeps the plan from call to call.
    ///
    /// `claim`: the fence's epoch (its row share-locked), the claimed keys' advisory locks in one order (so two
    /// claimers never deadlock), then the keys' candidates, read once the locks are held: each statement of a volatile
    /// function reads with a snapshot of its own, so a claimer that committed while this one waited is seen. Its first
    /// row carries the epoch, the others the candidates. One round trip where it was two.
    ///
    /// `OR REPLACE`: a store brought up from an older version in a test meets them again.
    static let version8 = [
        """
        CREATE OR REPLACE FUNCTION pushline.candidates(asking_run bigint, asked_keys text[], since double precision)
        RETURNS TABLE (c_key text, c_run text, c_at double precision, c_state text, c_origin text, c_same_run boolean,
                       c_notification_id text, c_step integer, c_row integer)
        LANGUAGE plpgsql STABLE SET enable_seqscan = off AS $$
        BEGIN
            RETURN QUERY
            SELECT i.idempotency_key, r.id, i.updated_at, i.state, i.origin, i.run = asking_run, i.notification_id,
                   i.step, i."row"
            FROM pushline.items AS i JOIN pushline.runs AS r ON r.seq = i.run
            WHERE i.idempotency_key IS NOT NULL AND i.idempotency_key = ANY(asked_keys) AND i.updated_at >= since
              AND i.state IN ('accepted', 'sending', 'unknown');
        END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION pushline.claim(lock_name text, claimed_keys text[], asking_run bigint,
                                                  since double precision)
        RETURNS TABLE (c_epoch bigint, c_key text, c_run text, c_at double precision, c_state text, c_origin text,
                       c_same_run boolean, c_notification_id text, c_step integer, c_row integer)
        LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            SELECT l.epoch INTO c_epoch FROM pushline.locks AS l WHERE l.name = lock_name FOR SHARE;
            PERFORM count(pg_advisory_xact_lock(held.h))
            FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest(claimed_keys) AS k ORDER BY h) AS held;
            RETURN NEXT;
            RETURN QUERY SELECT NULL::bigint, c.* FROM pushline.candidates(asking_run, claimed_keys, since) AS c;
        END
        $$
        """,
    ]
}
