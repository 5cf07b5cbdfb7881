import CommandTestSupport
import Foundation
import RunStore
import Testing

@testable import SQLiteRunStore

/// A journal an earlier release left behind holding a run that was stopped half-way: the new pushline migrates it and
/// resumes that run, sending each remaining user once and nobody twice. The earlier releases: the one before compact
/// items (SQLite schema 6: states and step ids as text in every item, targets as text, the whole key indexed) and the one
/// before pipeline names (SQLite schema 5, PostgreSQL schema 4: runs filed under their file's path, items stored as text).
extension BatchRunProcessTests {
    /// The journals of the earlier releases: a store, and the SQLite schema (nil for PostgreSQL's schema 4).
    static let earlierJournals: [(JournalKind, Int?)] =
        [(.sqlite, 6), (.sqlite, 5)] + JournalKind.all.filter { $0.description != "SQLite" }.map { ($0, nil) }

    @Test(arguments: earlierJournals)
    func aJournalOfAnEarlierReleaseIsMigratedAndItsStoppedRunResumes(_ kind: JournalKind, _ schema: Int?) async throws {
        let scratch = try await Scratch(users: 3000, journal: kind)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let first = try PushlineProcess(["run", paced, "--quiet"], environment: environment(scratch, connection))
        try await waitForDeliveries(base, atLeast: 300)
        #expect(try await first.stop(signal: SIGTERM) == 143)
        let stopped = try await deliveries(base).values.reduce(0, +)
        #expect(stopped < 3000)

        if scratch.journal.hasPrefix("postgres") {
            try await Self.psql(Self.postgresAsTheReleaseBefore, url: scratch.journal)
        } else {
            try Self.sqliteAsSchema6(scratch.journal)
            if schema == 5 { try Self.sqliteAsTheReleaseBefore(scratch.journal) }
        }

        let resumed = try PushlineProcess(["run", paced, "--quiet"], environment: environment(scratch, connection))
        #expect(try await resumed.waitForExit(timeout: 120) == 0, "\(resumed.stdout.suffix(2000))")
        #expect(resumed.stdout.contains("resuming run"), "\(resumed.stdout.suffix(2000))")
        let delivered = try await deliveries(base)
        #expect(delivered.count == 3000 && delivered.values.allSatisfy { $0 == 1 }, "every user once")
        // The run is filed under the pipeline's name now, and found by it.
        let list = try PushlineProcess(["runs", "list"], environment: environment(scratch, connection))
        #expect(try await list.waitForExit() == 0)
        #expect(list.stdout.contains("digest-paced") && !list.stdout.contains(paced), "\(list.stdout)")
        #expect(try await emulator.stop() == 0)
    }

    /// Rewrites a SQLite journal as the release before compact items wrote it (schema 6): the items table rebuilt with the
    /// state's name and the step's id in every item, targets as text, notification ids with their rest as text, and the
    /// whole key in the index. The result has exactly the tables, columns and indexes of a journal made by that release.
    static func sqliteAsSchema6(_ path: String) throws {
        let db = try SQLiteConnection(path: path)
        try db.transaction { () throws(RunStoreError) in
            try db.executeScript(
                """
                CREATE TABLE items_6 (
                    run INTEGER NOT NULL REFERENCES runs (seq) ON DELETE CASCADE, step INTEGER NOT NULL, row INTEGER NOT NULL,
                    step_id TEXT NOT NULL, origin TEXT NOT NULL, digest TEXT NOT NULL, state TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0, notification_id TEXT, error TEXT, retriable INTEGER NOT NULL DEFAULT 0,
                    updated_at REAL NOT NULL, idempotency_key TEXT, target TEXT, resolution TEXT,
                    PRIMARY KEY (run, step, row)
                ) WITHOUT ROWID;
                """)
            let columns =
                "run, step, row, step_id, origin, digest, state, attempts, notification_id, error, retriable, updated_at, "
                + "idempotency_key, target, resolution"
            try db.query("SELECT i.run, \(JournalRows.itemColumns("i")) FROM items AS i") {
                (row) throws(RunStoreError) in
                let item = try JournalRows.item(row, db, from: 1)
                try db.execute(
                    "INSERT INTO items_6 (\(columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
                ) {
                    (statement) throws(RunStoreError) in
                    try statement.bind(1, row.int64(0))
                    try statement.bind(2, Int64(item.key.step))
                    try statement.bind(3, Int64(item.key.row))
                    try statement.bind(4, item.stepId)
                    if let (id, line) = try db.originFiles.existingLine(of: item.origin, db) {
                        try statement.bind(5, bytes: OriginFiles.bytes(id << 32 | line))
                    } else {
                        try statement.bind(5, item.origin)
                    }
                    try statement.bindCompact(6, item.digest)
                    try statement.bind(7, item.state.rawValue)
                    try statement.bind(8, Int64(item.attempts))
                    try statement.bind(9, bytes: item.notificationId.map(Self.schema6NotificationId))
                    try statement.bind(10, item.error)
                    try statement.bind(11, Int64(item.retriable ? 1 : 0))
                    try statement.bind(12, item.updatedAt)
                    try statement.bindCompact(13, item.idempotencyKey, key: true)
                    try statement.bind(14, item.target)
                    try statement.bind(15, item.resolution)
                }
            }
            try db.executeScript(
                """
                DROP TABLE items;
                DROP TABLE steps;
                DROP TABLE spool_rows;
                DROP TABLE spools;
                ALTER TABLE items_6 RENAME TO items;
                CREATE INDEX items_by_key ON items (idempotency_key) WHERE idempotency_key IS NOT NULL;
                PRAGMA user_version = 6;
                """)
        }
        let made = path + ".schema-6"
        let older = try SQLiteConnection(path: made)
        for script in [
            JournalSchema.version1, JournalSchema.version2, JournalSchema.version3, JournalSchema.version4,
            JournalSchema.version5,
        ] {
            try older.executeScript(script)
        }
        try JournalSchema.migrateTo6(older)
        #expect(try shape(of: db) == shape(of: older))
        try? FileManager.default.removeItem(atPath: made)
    }

    /// A notification id as schema 6 stored it: its 32 hex digits as bytes, the rest as text.
    private static func schema6NotificationId(_ id: String) -> [UInt8] {
        guard let hex = CompactText.encode(String(id.prefix(32)), forKey: false), id.utf8.count >= 32 else {
            return Array(id.utf8)
        }
        return hex + Array(id.utf8.dropFirst(32))
    }

    /// Rewrites a schema 6 SQLite journal as the release before names wrote it: items as text (no compacted values, no file
    /// ids), declared keys without their pipeline, runs under their file's path, none of the newer tables, schema 5.
    /// The result has exactly the tables, columns and indexes of a journal made by that release's schema.
    static func sqliteAsTheReleaseBefore(_ path: String) throws {
        let db = try SQLiteConnection(path: path)
        var items: [(run: Int64, step: Int64, row: Int64, origin: String, digest: String, id: String?, key: String?)] =
            []
        try db.query("SELECT run, step, row, origin, digest, notification_id, idempotency_key FROM items") {
            (row) throws(RunStoreError) in
            items.append(
                (
                    row.int64(0), row.int64(1), row.int64(2),
                    try db.originFiles.origin(row, 3, row: Int(row.int64(2)), db), row.compactText(4) ?? "",
                    row.compactText(5), row.compactText(6)
                ))
        }
        #expect(!items.isEmpty)
        try db.transaction { () throws(RunStoreError) in
            for item in items {
                try db.execute(
                    "UPDATE items SET origin = ?1, digest = ?2, notification_id = ?3, idempotency_key = ?4 WHERE run = ?5 AND step = ?6 AND row = ?7"
                ) {
                    (statement) throws(RunStoreError) in
                    try statement.bind(1, item.origin)
                    try statement.bind(2, item.digest)
                    try statement.bind(3, item.id)
                    try statement.bind(4, item.key)
                    try statement.bind(5, item.run)
                    try statement.bind(6, item.step)
                    try statement.bind(7, item.row)
                }
            }
            try db.executeScript(
                """
                UPDATE items SET idempotency_key = substr(idempotency_key, length((SELECT pipeline FROM runs WHERE seq = items.run)) + 2)
                    WHERE substr(idempotency_key, 1, length((SELECT pipeline FROM runs WHERE seq = items.run)) + 1)
                        = (SELECT pipeline FROM runs WHERE seq = items.run) || '/';
                UPDATE runs SET pipeline = path;
                DROP INDEX runs_by_pipeline;
                DROP TABLE pipelines;
                DROP TABLE skips;
                DROP TABLE files;
                ALTER TABLE runs DROP COLUMN path;
                ALTER TABLE runs DROP COLUMN dedupe_window;
                DROP INDEX items_by_key;
                CREATE INDEX items_by_key ON items (idempotency_key, updated_at) WHERE idempotency_key IS NOT NULL;
                PRAGMA user_version = 5;
                """)
        }
        // The same shape as a journal that release made.
        let made = path + ".release-before"
        let older = try SQLiteConnection(path: made)
        for script in [
            JournalSchema.version1, JournalSchema.version2, JournalSchema.version3, JournalSchema.version4,
            JournalSchema.version5,
        ] {
            try older.executeScript(script)
        }
        #expect(try shape(of: db) == shape(of: older))
        try? FileManager.default.removeItem(atPath: made)
    }

    /// Tables and indexes with their columns, in a stable order.
    private static func shape(of db: SQLiteConnection) throws -> [String] {
        var objects: [(type: String, name: String)] = []
        try db.query("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name") {
            (row) throws(RunStoreError) in
            objects.append((row.text(0) ?? "", row.text(1) ?? ""))
        }
        var shape: [String] = []
        for object in objects {
            var columns: [String] = []
            let pragma = object.type == "table" ? "table_info" : "index_info"
            try db.query("SELECT name FROM pragma_\(pragma)('\(object.name)')") { (row) throws(RunStoreError) in
                columns.append(row.text(0) ?? "")
            }
            shape.append("\(object.type) \(object.name): \(columns.joined(separator: ", "))")
        }
        var version = 0
        try db.query("PRAGMA user_version") { (row) throws(RunStoreError) in version = row.int(0) }
        return shape + ["version \(version)"]
    }

    /// PostgreSQL schemas 7, 6 and 5 undone: what the release before names left (schema 4).
    static let postgresAsTheReleaseBefore = """
        BEGIN;
        DROP TABLE pushline.spool_rows;
        DROP TABLE pushline.spools;
        DROP TABLE pushline.steps;
        UPDATE pushline.items AS i SET idempotency_key = substr(i.idempotency_key, length(r.pipeline) + 2)
            FROM pushline.runs AS r WHERE r.seq = i.run AND left(i.idempotency_key, length(r.pipeline) + 1) = r.pipeline || '/';
        UPDATE pushline.runs SET pipeline = path;
        DROP INDEX pushline.runs_by_pipeline;
        DROP TABLE pushline.pipelines;
        DROP TABLE pushline.skips;
        ALTER TABLE pushline.runs DROP COLUMN path, DROP COLUMN dedupe_window;
        UPDATE pushline.meta SET value = '4' WHERE key = 'schema_version';
        COMMIT;
        """

    /// Runs SQL with psql, waited for on a thread of its own (never one of the few Swift's tasks share).
    static func psql(_ sql: String, url: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql]
                let output = Pipe()
                process.standardOutput = output
                process.standardError = output
                do {
                    try process.run()
                    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    if process.terminationStatus == 0 {
                        continuation.resume()
                    } else {
                        continuation.resume(
                            throwing: CocoaError(
                                .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "psql: \(text)"]))
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
