import PipelineCore
import RunStore

/// The journal's tables and how an older file is brought up to date.
///
/// The version lives in `PRAGMA user_version`, so a newer pushline can tell what an older one wrote
/// and an older pushline refuses a file it does not understand instead of corrupting it.
enum JournalSchema {
    /// The version this build writes and reads.
    static let version = 9

    /// Renames every run's pipeline from the path it was recorded under to the name that file goes by.
    static func namePipelines(_ connection: SQLiteConnection) throws(RunStoreError) {
        var paths: [String] = []
        try connection.query("SELECT DISTINCT pipeline FROM runs") { row throws(RunStoreError) in
            paths.append(row.text(0) ?? "")
        }
        for path in paths {
            try connection.execute("UPDATE runs SET pipeline = ?1 WHERE pipeline = ?2") {
                (statement) throws(RunStoreError) in
                try statement.bind(1, PipelineName.fromFile(path))
                try statement.bind(2, path)
            }
        }
    }

    /// Brings a version 5 journal to version 6.
    static func migrateTo6(_ connection: SQLiteConnection) throws(RunStoreError) {
        try connection.defineCompactFunction()
        try connection.executeScript(version6Before)
        try namePipelines(connection)
        try connection.executeScript(version6After)
    }

    /// Sets the connection's pragmas and creates or migrates the schema. An older journal is migrated only while no
    /// run holds a lock in `lockDirectory`: a run of the older pushline would go on writing in the old way.
    static func prepare(_ connection: SQLiteConnection, lockDirectory: String? = nil) throws(RunStoreError) {
        // WAL lets `pushline runs` read while a batch writes, and a commit is an append to the WAL, not a
        // rewrite of pages. With synchronous=NORMAL a commit survives the process being killed (the WAL is
        // in the OS's page cache), but a power loss or kernel crash may lose the last few transactions;
        // FULL would fsync every batch and cost far more than the sends it protects.
        // This is also the first read of the file, which is where SQLite finds out that a file is not a
        // database (SQLITE_NOTADB); opening alone succeeds on any file. Where WAL is unavailable (some
        // network filesystems) SQLite keeps a rollback journal: still correct, only less concurrent.
        // Incremental vacuum lets pruning give space back to the file system (`Journal+Prune`). It can only be chosen
        // while the file is empty, before WAL mode writes its first page; a file made by an earlier pushline gets it when
        // its first prune vacuums it whole.
        // Pages of 1 KiB, not SQLite's 4 KiB: a commit writes each page it changed to the WAL whole, and the key index's
        // entries land at random places, so every item changes an index page of its own. A new journal writes about a
        // third less (bench/README.md) at the same size; a journal made before keeps its pages.
        var pages = 0
        try connection.query("PRAGMA page_count") { row throws(RunStoreError) in pages = row.int(0) }
        if pages == 0 { try connection.executeScript("PRAGMA page_size = 1024; PRAGMA auto_vacuum = INCREMENTAL;") }
        try connection.query("PRAGMA journal_mode = WAL") { _ throws(RunStoreError) in }
        // Statement journals (a multi-row upsert inside a transaction keeps one, to undo that statement alone)
        // stay in memory: on disk each was a temporary file created, written and unlinked per transaction.
        // They only undo a statement within its transaction, so the database's durability is unchanged.
        try connection.executeScript(
            "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;")
        // A checkpoint every 4 MiB of WAL whatever the page size (SQLite's default is 1,000 pages: 4 MiB at 4 KiB, 1 MiB at
        // 1 KiB): a page changed by several commits in between is copied back once.
        var pageSize = 4096
        try connection.query("PRAGMA page_size") { row throws(RunStoreError) in pageSize = max(512, row.int(0)) }
        try connection.executeScript("PRAGMA wal_autocheckpoint = \((4 << 20) / pageSize);")
        try connection.defineTargetFunction()
        guard try currentVersion(connection) != version else { return }
        try connection.transaction { () throws(RunStoreError) in
            // Read again under the write lock: another process may have created the schema meanwhile.
            let found = try currentVersion(connection)
            if found == version { return }
            if found > version {
                throw RunStoreError(
                    "the run journal at \(connection.path) has schema version \(found), "
                        + "newer than this pushline understands (\(version)); use a newer pushline or another journal",
                    kind: .configuration)
            }
            if found < 0 {
                throw RunStoreError(
                    "the run journal at \(connection.path) has an invalid schema version \(found)", kind: .configuration
                )
            }
            if (1...6).contains(found) {
                if let lockDirectory, let held = FileRunLock.anyHeld(in: lockDirectory) {
                    throw RunStoreError(
                        "the run journal at \(connection.path) is from an older pushline and a run is still going "
                            + "(\(held)); it is upgraded once no run holds a lock: wait for it to end, then start again",
                        kind: .unavailable)
                }
                if found < 2 { try connection.executeScript(version2) }
                if found < 3 { try connection.executeScript(version3) }
                if found < 4 { try connection.executeScript(version4) }
                if found < 5 { try connection.executeScript(version5) }
                if found < 6 { try migrateTo6(connection) }
                try connection.executeScript(version7)
                try connection.executeScript(version8)
                try connection.executeScript(version9)
                return
            }
            if found == 7 { try connection.executeScript(version8) }
            if found == 7 || found == 8 {
                try connection.executeScript(version9)
                return
            }
            // found == 0: a new file (there is no older version yet), unless it is some other program's
            // database, which must not gain our tables.
            var objects = 0
            try connection.query("SELECT count(*) FROM sqlite_schema") { row throws(RunStoreError) in
                objects = row.int(0)
            }
            guard objects == 0 else {
                throw RunStoreError(
                    "\(connection.path) is a SQLite database but not a pushline run journal "
                        + "(it has tables and no journal schema version)", kind: .configuration)
            }
            try connection.executeScript(version1)
            try connection.executeScript(version2)
            try connection.executeScript(version3)
            try connection.executeScript(version4)
            try connection.executeScript(version5)
            try migrateTo6(connection)
            try connection.executeScript(version7)
            try connection.executeScript(version8)
            try connection.executeScript(version9)
        }
    }

    private static func currentVersion(_ connection: SQLiteConnection) throws(RunStoreError) -> Int {
        var found = 0
        try connection.query("PRAGMA user_version") { row throws(RunStoreError) in found = row.int(0) }
        return found
    }
}
