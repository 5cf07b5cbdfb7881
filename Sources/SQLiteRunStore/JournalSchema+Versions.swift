/// The journal's tables as each version made them: the scripts `JournalSchema.prepare` runs, in order, on a new or
/// older file.
extension JournalSchema {
    /// Version 1.
    ///
    /// A run has a text id for people and an integer `seq` for the items table: a million item rows then
    /// carry a small integer instead of a 22-character string, and every insert's foreign-key check is a
    /// rowid lookup. `items` is keyed by (run, step, row) WITHOUT ROWID, so the per-row lookup on resume is
    /// one B-tree descent and items are stored in the order reports read them. There are no CHECK
    /// constraints on the state columns: an `IN (...)` check roughly doubled the cost of each insert, and
    /// only this module writes them, from enum raw values (reads still reject unknown text).
    static let version1 = """
        CREATE TABLE runs (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            identity TEXT NOT NULL,
            pipeline TEXT NOT NULL,
            started_at REAL NOT NULL,
            ended_at REAL,
            resumed_at REAL,
            status TEXT NOT NULL,
            pid INTEGER NOT NULL,
            exit_code INTEGER,
            resumes INTEGER NOT NULL DEFAULT 0,
            summary TEXT
        );
        CREATE INDEX runs_by_identity ON runs (identity, started_at);
        CREATE INDEX runs_by_start ON runs (started_at);
        CREATE TABLE items (
            run INTEGER NOT NULL REFERENCES runs (seq) ON DELETE CASCADE,
            step INTEGER NOT NULL,
            row INTEGER NOT NULL,
            step_id TEXT NOT NULL,
            origin TEXT NOT NULL,
            digest TEXT NOT NULL,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            notification_id TEXT,
            error TEXT,
            retriable INTEGER NOT NULL DEFAULT 0,
            updated_at REAL NOT NULL,
            PRIMARY KEY (run, step, row)
        ) WITHOUT ROWID;
        PRAGMA user_version = 1;
        """

    /// Version 2: idempotency keys, targets and resolutions.
    ///
    /// `idempotency_key` makes duplicate protection work across runs: an item whose key a run of the same
    /// pipeline had accepted within the step's window is not sent again. The index is partial (items
    /// without a key cost nothing) and ends with `updated_at`, so the lookup is one range scan of the key.
    /// `target` (audience, handles, installation id) is what `pushline runs find` searches; `resolution`
    /// records who settled an unknown item by hand, and when. Errors no longer start with the item's
    /// origin (kept in its own column), so equal reasons group; v1 rows are rewritten the same way.
    static let version2 = """
        ALTER TABLE items ADD COLUMN idempotency_key TEXT;
        ALTER TABLE items ADD COLUMN target TEXT;
        ALTER TABLE items ADD COLUMN resolution TEXT;
        CREATE INDEX items_by_key ON items (idempotency_key, updated_at) WHERE idempotency_key IS NOT NULL;
        UPDATE items SET error = substr(error, length(origin) + 3)
            WHERE error IS NOT NULL AND substr(error, 1, length(origin) + 2) = origin || ': ';
        PRAGMA user_version = 2;
        """

    /// Version 3: shards. A run of `pushline run --shard I/N` records its part (`2/4`); the parts of one run share
    /// its identity, each a run of its own. NULL is a run of every row, as every run before this version was.
    static let version3 = """
        ALTER TABLE runs ADD COLUMN shard TEXT;
        PRAGMA user_version = 3;
        """

    /// Version 4: the pace shared by the processes sending to a hub through this file (`Journal+Pace`): hubs'
    /// pauses after throttling and the next free slot of each send budget, in epoch seconds.
    static let version4 = """
        CREATE TABLE pace (key TEXT PRIMARY KEY, next_slot REAL NOT NULL DEFAULT 0, paused_until REAL NOT NULL DEFAULT 0)
            WITHOUT ROWID;
        PRAGMA user_version = 4;
        """

    /// Version 5: generations. Each `--again` of a split run's part that already ran opens a new generation
    /// (`RunRecord.generation`), so `runs show` keeps the parts of one start together.
    static let version5 = """
        ALTER TABLE runs ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
        PRAGMA user_version = 5;
        """

    /// Version 6: pipelines by name (`PipelineName`), not by path.
    ///
    /// `runs.pipeline` holds the pipeline's name and `runs.path` the file it was last read from; a run recorded under a
    /// path is migrated to the name that file goes by (`PipelineName.fromFile`, done between the two halves).
    /// `pipelines` remembers where each name was last read from, which tells a moved pipeline from a stranger that
    /// shares its file name. `runs.dedupe_window` is the longest dedupe window of the run's steps, which pruning keeps.
    /// `skips` holds the rows a run did not send because another run had (`already sent by run X`) as ranges, so a
    /// re-run writes what it sends, not every row it skips. A declared idempotency key is filed under its pipeline
    /// (`name/step2:key`); default keys are the hub's (`request:…`, `device:…`) and stay as they are.
    ///
    /// Items take less room: digests, notification ids and default keys are stored compacted (`CompactText`, existing
    /// rows rewritten through the `pushline_compact` SQL function), new items name their file by its id in `files`
    /// (`OriginFiles`), and the key index no longer carries the time (the few items of one key are read from the table).
    static let version6Before = """
        ALTER TABLE runs ADD COLUMN path TEXT;
        ALTER TABLE runs ADD COLUMN dedupe_window REAL;
        UPDATE runs SET path = pipeline;
        """
    static let version6After = """
        CREATE INDEX runs_by_pipeline ON runs (pipeline, status);
        CREATE TABLE pipelines (
            name TEXT PRIMARY KEY,
            path TEXT NOT NULL,
            content TEXT,
            declared INTEGER NOT NULL DEFAULT 0,
            seen_at REAL NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO pipelines (name, path, content, declared, seen_at)
            SELECT pipeline, path, NULL, 0, max(started_at) FROM runs GROUP BY pipeline;
        CREATE TABLE skips (
            run INTEGER NOT NULL REFERENCES runs (seq) ON DELETE CASCADE,
            step INTEGER NOT NULL,
            first_row INTEGER NOT NULL,
            last_row INTEGER NOT NULL,
            step_id TEXT NOT NULL,
            origin TEXT NOT NULL,
            first_line INTEGER,
            prior_run TEXT NOT NULL,
            prior_step INTEGER NOT NULL,
            prior_first_row INTEGER NOT NULL,
            PRIMARY KEY (run, step, first_row)
        ) WITHOUT ROWID;
        CREATE INDEX skips_by_prior ON skips (prior_run, prior_step, prior_first_row);
        CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
        DROP INDEX items_by_key;
        UPDATE items SET idempotency_key = (SELECT pipeline FROM runs WHERE seq = items.run) || '/' || idempotency_key
            WHERE idempotency_key IS NOT NULL AND substr(idempotency_key, 1, 8) <> 'request:'
                AND substr(idempotency_key, 1, 7) <> 'device:';
        UPDATE items SET digest = pushline_compact(digest, 0), notification_id = pushline_compact(notification_id, 0),
            idempotency_key = pushline_compact(idempotency_key, 1);
        CREATE INDEX items_by_key ON items (idempotency_key) WHERE idempotency_key IS NOT NULL;
        PRAGMA user_version = 6;
        """

    /// Version 7: an item in fewer bytes (a year of daily million-row digests is a journal of tens of gigabytes, so every
    /// byte of an item is 365 MB a year).
    ///
    /// `items` is rebuilt: its state is a code (`StoredState`), the step's id moves to `steps` (one row per run and step,
    /// not per item), and the value columns have BLOB affinity (stored as given) so a row digest can be an INTEGER
    /// (`CompactText.integer`) and a target a compacted BLOB (`CompactTarget`); values written before keep their form and
    /// read the same. The key index holds four bytes of a compacted key's digest (`LedgerSQL.keyPrefix`) rather than
    /// the whole key: the lookups compare the whole key on the few rows it finds.
    static let version7 = """
        CREATE TABLE steps (
            run INTEGER NOT NULL REFERENCES runs (seq) ON DELETE CASCADE,
            step INTEGER NOT NULL,
            step_id TEXT NOT NULL,
            PRIMARY KEY (run, step)
        ) WITHOUT ROWID;
        INSERT INTO steps (run, step, step_id) SELECT run, step, min(step_id) FROM items GROUP BY run, step;
        CREATE TABLE items_7 (
            run INTEGER NOT NULL REFERENCES runs (seq) ON DELETE CASCADE,
            step INTEGER NOT NULL,
            row INTEGER NOT NULL,
            origin BLOB NOT NULL,
            digest BLOB NOT NULL,
            state INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            notification_id BLOB,
            error TEXT,
            retriable INTEGER NOT NULL DEFAULT 0,
            updated_at REAL NOT NULL,
            idempotency_key BLOB,
            target BLOB,
            resolution TEXT,
            PRIMARY KEY (run, step, row)
        ) WITHOUT ROWID;
        INSERT INTO items_7 (run, step, row, origin, digest, state, attempts, notification_id, error, retriable, updated_at,
                             idempotency_key, target, resolution)
            SELECT run, step, row, origin, digest, \(StoredState.fromName), attempts, notification_id, error, retriable, updated_at,
                   idempotency_key, target, resolution
            FROM items;
        DROP TABLE items;
        ALTER TABLE items_7 RENAME TO items;
        CREATE INDEX items_by_key ON items (\(LedgerSQL.keyPrefix("idempotency_key"))) WHERE idempotency_key IS NOT NULL;
        PRAGMA user_version = 7;
        """

    /// Version 8: a step that completed keeps its one line and its outputs (JSON) beside its id, so a resumed run reads
    /// them back instead of running the step again, and `runs show` prints them. NULL: not completed (or recorded
    /// before this version).
    static let version8 = """
        ALTER TABLE steps ADD COLUMN summary TEXT;
        ALTER TABLE steps ADD COLUMN outputs TEXT;
        PRAGMA user_version = 8;
        """

    /// Version 9: rows a step produced (a query's), spooled for the steps that read them. A spool is named by the
    /// identity and generation of the run that filled it (every part of a split run reads the one spool), the
    /// step's position and a digest of its source; `state` 0 while it is filled, 1 once complete. Each row is a
    /// JSON object line, numbered from 1. Spool ids are never reused (AUTOINCREMENT), so a filler whose spool was taken
    /// over cannot complete its successor's.
    static let version9 = """
        CREATE TABLE spools (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            run INTEGER NOT NULL REFERENCES runs (seq) ON DELETE CASCADE,
            pipeline TEXT NOT NULL,
            identity TEXT NOT NULL,
            generation INTEGER NOT NULL,
            step INTEGER NOT NULL,
            source TEXT NOT NULL,
            state INTEGER NOT NULL,
            columns TEXT,
            count INTEGER,
            digest TEXT,
            started_at REAL NOT NULL,
            completed_at REAL
        );
        CREATE UNIQUE INDEX spools_by_run ON spools (identity, generation, step, source);
        CREATE INDEX spools_by_source ON spools (pipeline, step, source, completed_at);
        CREATE TABLE spool_rows (
            spool INTEGER NOT NULL REFERENCES spools (id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            line TEXT NOT NULL,
            PRIMARY KEY (spool, number)
        ) WITHOUT ROWID;
        PRAGMA user_version = 9;
        """
}
