import Foundation
@testable import RunJournal
import RunStore
import Testing

/// A journal the release before pipeline names left behind (SQLite schema 5, PostgreSQL schema 4: runs filed under
/// their file's path, items stored as text) holding a run that was stopped half-way: the new pushline migrates it and
/// resumes that run, sending each remaining user once and nobody twice.
extension BatchRunProcessTests {
    @Test(arguments: JournalKind.all)
    func aJournalOfTheReleaseBeforeIsMigratedAndItsStoppedRunResumes(_ kind: JournalKind) async throws {
        let scratch = try Scratch(users: 3000, journal: kind)
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
            try Self.sqliteAsTheReleaseBefore(scratch.journal)
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

    /// Rewrites a SQLite journal as the release before names wrote it: items as text (no compacted values, no file
    /// ids), declared keys without their pipeline, runs under their file's path, none of the newer tables, schema 5.
    /// The result has exactly the tables, columns and indexes of a journal made by that release's schema.
    static func sqliteAsTheReleaseBefore(_ path: String) throws {
        let db = try SQLiteConnection(path: path)
        var items: [(run: Int64, step: Int64, row: Int64, origin: String, digest: String, id: String?, key: String?)] = []
        try db.query("SELECT run, step, row, origin, digest, notification_id, idempotency_key FROM items") { (row) throws(RunStoreError) in
            items.append((row.int64(0), row.int64(1), row.int64(2), try db.originFiles.origin(row, 3, db), row.compactText(4) ?? "",
                          row.compactText(5), row.compactText(6)))
        }
        #expect(!items.isEmpty)
        try db.transaction { () throws(RunStoreError) in
            for item in items {
                try db.execute("UPDATE items SET origin = ?1, digest = ?2, notification_id = ?3, idempotency_key = ?4 WHERE run = ?5 AND step = ?6 AND row = ?7") {
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
            try db.executeScript("""
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
        for script in [JournalSchema.version1, JournalSchema.version2, JournalSchema.version3, JournalSchema.version4, JournalSchema.version5] {
            try older.executeScript(script)
        }
        #expect(try shape(of: db) == shape(of: older))
        try? FileManager.default.removeItem(atPath: made)
    }

    /// Tables and indexes with their columns, in a stable order.
    private static func shape(of db: SQLiteConnection) throws -> [String] {
        var objects: [(type: String, name: String)] = []
        try db.query("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name") { (row) throws(RunStoreError) in
            objects.append((row.text(0) ?? "", row.text(1) ?? ""))
        }
        var shape: [String] = []
        for object in objects {
            var columns: [String] = []
            let pragma = object.type == "table" ? "table_info" : "index_info"
            try db.query("SELECT name FROM pragma_\(pragma)('\(object.name)')") { (row) throws(RunStoreError) in columns.append(row.text(0) ?? "") }
            shape.append("\(object.type) \(object.name): \(columns.joined(separator: ", "))")
        }
        var version = 0
        try db.query("PRAGMA user_version") { (row) throws(RunStoreError) in version = row.int(0) }
        return shape + ["version \(version)"]
    }

    /// PostgreSQL schema 5 undone: what the release before names left (schema 4).
    static let postgresAsTheReleaseBefore = """
        BEGIN;
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
                        continuation.resume(throwing: CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "psql: \(text)"]))
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
