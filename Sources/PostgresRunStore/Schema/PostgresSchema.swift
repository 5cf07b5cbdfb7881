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
    static let version = 8

    /// The advisory lock key that serialises schema changes (an arbitrary constant: "pushline" in ASCII).
    static let migrationLock: Int64 = 0x70_75_73_68_6c_69_6e_65

    /// Renames every run's pipeline from the path it was recorded under to the name that file goes by.
    static func namePipelines(_ connection: PostgresConnection, logger: Logger) async throws {
        var paths: [String] = []
        for try await row in try await connection.query("SELECT DISTINCT pipeline FROM pushline.runs", logger: logger) {
            paths.append(try row.decode(String.self))
        }
        for path in paths {
            let name = StoredText.encode(PipelineName.fromFile(StoredText.decode(path)))
            try await connection.query(
                "UPDATE pushline.runs SET pipeline = \(name) WHERE pipeline = \(path)", logger: logger)
        }
    }

    /// A description of a lock another session of this database holds (a run still going), or nil.
    static func heldLock(_ connection: PostgresConnection, logger: Logger) async throws -> String? {
        let rows = try await connection.query(
            """
            SELECT l.pid FROM pg_locks AS l WHERE l.locktype = 'advisory' AND l.granted AND l.pid <> pg_backend_pid()
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) LIMIT 1
            """, logger: logger)
        for try await row in rows { return "server process \(try row.decode(Int.self)) holds a run lock" }
        return nil
    }

    /// Migrations by the version they lead to; `migrations[v]` brings version v − 1 to v (with `version5After` after
    /// the runs are named, for 5).
    static let migrations: [Int: [String]] = [
        1: version1, 2: version2, 3: version3, 4: version4, 5: version5, 6: version6, 7: version7, 8: version8,
    ]

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
                    throw RunStoreError(
                        "the run store at \(location) has schema version \(found), newer than this pushline "
                            + "understands (\(version)); use a newer pushline or another database", kind: .configuration
                    )
                }
                if found < 0 {
                    throw RunStoreError(
                        "the run store at \(location) has an invalid schema version", kind: .configuration)
                }
                if found == 0, try await hasForeignTables(connection, logger: logger) {
                    throw RunStoreError(
                        "the schema 'pushline' at \(location) has tables but no pushline schema version; "
                            + "it is not a pushline run store (use another database)", kind: .configuration)
                }
                if found > 0, found < version, let held = try await heldLock(connection, logger: logger) {
                    // A run of the older pushline would go on writing in the old way beside the new schema.
                    throw RunStoreError(
                        "the run store at \(location) is from an older pushline and a run is still going (\(held)); "
                            + "it is upgraded once no run holds a lock: wait for it to end, then start again",
                        kind: .unavailable)
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
                        "UPDATE pushline.meta SET value = \(String(found)) WHERE key = 'schema_version'", logger: logger
                    )
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
            throw RunStoreError(
                "the run store at \(location) has schema version \(found), newer than this pushline "
                    + "understands (\(version)); use a newer pushline or another database", kind: .configuration)
        }
        return found == version
    }

    /// The version in `pushline.meta`; 0 when there is no such table.
    private static func currentVersion(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        // pg_tables, not to_regclass: the catalog cache of a session that waited on an advisory lock may not have
        // seen the tables another session created meanwhile; a query on the catalog reads them with a fresh snapshot.
        let exists = try await connection.query(
            "SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = 'pushline' AND tablename = 'meta')",
            logger: logger)
        var present = false
        for try await row in exists { present = try row.decode(Bool.self) }
        guard present else { return 0 }
        let rows = try await connection.query(
            "SELECT value FROM pushline.meta WHERE key = 'schema_version'", logger: logger)
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
