import CSQLite
import Foundation
import PipelineCore
import PostgresRunStore
import PushlineLogging
import TestSupport
import Testing

@testable import QueryStep

/// A scratch directory with a SQLite database made by `sql`.
struct Scratch {
    let directory: String

    init(_ sql: String) throws {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("pushline-query-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var db: OpaquePointer?
        guard sqlite3_open(directory + "/app.sqlite", &db) == SQLITE_OK else {
            throw Failure("cannot create the database")
        }
        defer { sqlite3_close(db) }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            throw Failure(message.map { String(cString: $0) } ?? "exec failed")
        }
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// Runs `sql` on the scratch database; the first column of its first row, as a number (0 without rows).
    static func count(_ scratch: Scratch, _ sql: String) throws -> Int {
        var db: OpaquePointer?
        guard sqlite3_open(scratch.directory + "/app.sqlite", &db) == SQLITE_OK else {
            throw Failure("cannot open the database")
        }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        let result = sqlite3_step(statement)
        guard result == SQLITE_ROW || result == SQLITE_DONE else { throw Failure(String(cString: sqlite3_errmsg(db))) }
        return result == SQLITE_ROW ? Int(sqlite3_column_int64(statement, 0)) : 0
    }

    struct Failure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}

let appSQL = """
    CREATE TABLE users (user_id TEXT, name TEXT, visits INTEGER, score REAL, note TEXT);
    INSERT INTO users VALUES ('u1', 'Ann', 3, 1.5, NULL), ('u2', 'Bob "the" builder', 0, 2.25, 'x'), ('u3', 'Robert''); DROP TABLE users;--', 7, 0, '');
    """

/// Builds `query` from string options, as the pipeline would give them.
/// With `source`, the pipeline's text by line number (the rest blank), so a place inside the SQL maps to its line.
/// `validation` builds as `validate` does (a table not there is an error); false, as a run does.
func build(
    _ pairs: [(String, Any)], directory: String, environment: [String: String] = [:], source: [Int: String] = [:],
    validation: Bool = true
) -> (QueryStep?, [Diagnostic]) {
    let collector = DiagnosticCollector()
    let file = directory + "/p.yaml"
    if let last = source.keys.max() {
        collector.register(source: (1...last).map { source[$0] ?? "" }.joined(separator: "\n") + "\n", for: file)
    }
    let node = ConfigNode(
        .mapping(
            pairs.enumerated().map { offset, pair in
                let location = SourceLocation(file: file, line: offset + 10, column: 12)
                let value: ConfigNode =
                    if let list = pair.1 as? [String] {
                        ConfigNode(
                            .sequence(list.map { ConfigNode(.scalar(ConfigScalar(text: $0)), at: location) }),
                            at: location)
                    } else {
                        ConfigNode(.scalar(ConfigScalar(text: "\(pair.1)")), at: location)
                    }
                return ConfigEntry(
                    key: pair.0, keyLocation: SourceLocation(file: file, line: offset + 10, column: 5), value: value)
            }), at: SourceLocation(file: file, line: 9, column: 5))
    let reader = OptionReader(
        node, specs: QueryStep.options, step: QueryStep.id, what: "query options", diagnostics: collector)
    var document = PipelineDocument(file: file, directory: directory)
    document.environment = environment
    document.isValidation = validation
    return (
        QueryStep.build(reader, in: BuildContext(document: document, loadDataFile: { _, _, _, _ in nil })),
        collector.diagnostics
    )
}

/// A dry run's context (no run store: the rows go to a file of the run's own).
func context(dryRun: Bool = true) -> StepContext {
    .forTesting(dryRun: dryRun)
}

/// The rows a result's file holds, as JSON objects.
func lines(_ rows: SpooledRows) throws -> [String] {
    try String(contentsOfFile: try #require(rows.file), encoding: .utf8).split(separator: "\n").map(String.init)
}

@Suite struct QueryStepTests {
    @Test(
        "each column becomes a field by its name, in order; numbers keep their digits, NULL is null; an argument is bound, never part of the SQL"
    )
    func readsRowsFromSQLite() async throws {
        let scratch = try Scratch(appSQL)
        defer { scratch.remove() }
        let (step, diagnostics) = build(
            [
                ("database", "app.sqlite"),
                (
                    "sql",
                    #"select user_id as "userId", name, visits, score, note from users where user_id <> $1 order by user_id"#
                ),
                ("arguments", ["u9'); DROP TABLE users;--"]),
            ], directory: scratch.directory)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let query = try #require(step)
        let state = context()
        let result = try await query.run(in: state)
        guard case .rows(let rows)? = result.outputs["rows"] else {
            Issue.record("rows")
            return
        }
        #expect(
            rows.columns == ["userId", "name", "visits", "score", "note"] && rows.count == 3
                && result.outputs["count"] == .integer(3))
        #expect(
            try lines(rows) == [
                #"{"userId":"u1","name":"Ann","visits":"3","score":"1.5","note":null}"#,
                #"{"userId":"u2","name":"Bob \"the\" builder","visits":"0","score":"2.25","note":"x"}"#,
                #"{"userId":"u3","name":"Robert'); DROP TABLE users;--","visits":"7","score":"0.0","note":""}"#,
            ])
        #expect(
            result.summary.hasPrefix("read 3 rows from '\(scratch.directory)/app.sqlite' in ")
                && result.summary.hasSuffix("(a dry run reads; it writes nothing)"))
        #expect(
            result.lines.first == "columns: userId, name, visits, score, note" && result.lines.count == 4,
            "the dry run previews the rows")
        // The table is still there: the argument was a value.
        let again = try await query.run(in: context())
        #expect(again.outputs["count"] == .integer(3))
        state.state.removeTemporaryFiles()
        #expect(
            !FileManager.default.fileExists(atPath: try #require(rows.file)), "the run's row file goes with the run")
    }

    @Test(
        "the SQL is prepared when the step is built: a write, two statements, a missing table or column and a syntax error are errors at their place in the file; nothing runs"
    )
    func refusesWhatIsNotOneReadBeforeTheRun() throws {
        let scratch = try Scratch(appSQL)
        defer { scratch.remove() }
        let file = scratch.directory + "/p.yaml"
        let block = [11: "      sql: |", 12: "        select user_id,", 13: "          nme from users"]
        for (sql, source, line, column, message) in [
            (
                "delete from users", [:], 11, 12,
                "the SQL: the statement would write to the database; a query only reads (SELECT or WITH … SELECT)"
            ),
            (
                "select 1; delete from users", [:], 11, 12,
                "the SQL: the SQL holds more than one statement; a query runs one SELECT"
            ),
            ("select * from userz", [:], 11, 12, "the SQL: no such table: userz"),
            ("selct 1", [11: "      sql: selct 1"], 11, 12, "the SQL: near \"selct\": syntax error"),
            (
                "select 1 from users where nme = 1", [11: "      sql: \"select 1 from users where nme = 1\""], 11, 39,
                "the SQL: no such column: nme"
            ),
            ("select user_id,\n  nme from users\n", block, 13, 11, "the SQL: no such column: nme"),
            ("select user_id,\n  nme from users", [:], 11, 12, "the SQL, line 2, column 3: no such column: nme"),
            (
                "select user_id from users where name = $1", [:], 11, 12,
                "the SQL: the SQL uses 1 parameter and `arguments` gives 0"
            ),
        ] as [(String, [Int: String], Int, Int, String)] {
            let (query, diagnostics) = build(
                [("database", "app.sqlite"), ("sql", sql)], directory: scratch.directory, source: source)
            #expect(query == nil)
            #expect(diagnostics.map(\.message) == [message])
            #expect(diagnostics.first?.location == SourceLocation(file: file, line: line, column: column), "\(sql)")
            #expect(diagnostics.first?.severity == .error)
        }
        #expect(try Scratch.count(scratch, "select count(*) from users") == 3, "nothing was run")
        // A run builds SQL that names a table the database lacks (a migration may come first): the query fails when it runs.
        let (later, none) = build(
            [("database", "app.sqlite"), ("sql", "select * from userz")], directory: scratch.directory,
            validation: false)
        #expect(none.isEmpty && later?.columns(of: "rows") == nil)
        let (syntax, refused) = build(
            [("database", "app.sqlite"), ("sql", "selct 1")], directory: scratch.directory, validation: false)
        #expect(
            syntax == nil && refused.map(\.message) == ["the SQL, line 1, column 1: near \"selct\": syntax error"],
            "SQL no database can run is refused by a run too")
        let (good, diagnostics) = build(
            [("database", "app.sqlite"), ("sql", #"select user_id as "userId", name from users"#)],
            directory: scratch.directory)
        #expect(diagnostics.isEmpty)
        #expect(
            good?.columns(of: "rows") == ["userId", "name"] && good?.columns(of: "count") == nil,
            "its columns are known before the run")
    }

    @Test("the database changed between the build and the run: the failure names the file line of the SQL")
    func aFailureAtRunTimeNamesTheLine() async throws {
        let scratch = try Scratch(appSQL)
        defer { scratch.remove() }
        let file = scratch.directory + "/p.yaml"
        let block = [11: "      sql: |", 12: "        select user_id,", 13: "          name from users"]
        let query = try #require(
            build(
                [("database", "app.sqlite"), ("sql", "select user_id,\n  name from users\n")],
                directory: scratch.directory, source: block
            ).0)
        _ = try Scratch.count(scratch, "alter table users rename column name to display_name")
        do {
            _ = try await query.run(in: context())
            Issue.record("the column is gone")
        } catch let failure as StepFailure {
            #expect(failure.message == "\(file):13:11: no such column: name")
            #expect(failure.code == .querySQL)
        }
        let inline = try #require(
            build(
                [("database", "app.sqlite"), ("sql", "select user_id,\n  display_name from users")],
                directory: scratch.directory
            ).0)
        _ = try Scratch.count(scratch, "alter table users rename column display_name to name")
        do {
            _ = try await inline.run(in: context())
            Issue.record("the column is gone")
        } catch let failure as StepFailure {
            #expect(
                failure.message == "\(file):11:12 (sql, line 2, column 3): no such column: display_name",
                "not a line-for-line block: the place inside the SQL")
        }
        let count = try #require(
            build(
                [("database", "app.sqlite"), ("sql", "select count(*) as n from users; -- every user\n")],
                directory: scratch.directory
            ).0)
        let result = try await count.run(in: context())
        guard case .rows(let rows)? = result.outputs["rows"] else {
            Issue.record("rows")
            return
        }
        #expect(try lines(rows) == [#"{"n":"3"}"#])
    }

    @Test(
        "SQL read from a .sql file is located in that file, named from the pipeline's folder; an error names its line and column"
    )
    func sqlFromAFile() async throws {
        let scratch = try Scratch(appSQL)
        defer { scratch.remove() }
        try FileManager.default.createDirectory(
            atPath: scratch.directory + "/queries", withIntermediateDirectories: true)
        let path = scratch.directory + "/queries/digest.sql"
        try "-- who gets the digest\nselect user_id,\n       nmae\nfrom users\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let (refused, diagnostics) = build(
            [("database", "app.sqlite"), ("sql", "queries/digest.sql")], directory: scratch.directory)
        #expect(refused == nil && diagnostics.map(\.message) == ["the SQL: no such column: nmae"])
        #expect(diagnostics.first?.location == SourceLocation(file: path, line: 3, column: 8))
        #expect(diagnostics.first?.sourceLine == "       nmae", "the line is shown from the .sql file")
        try "-- who gets the digest\nselect user_id,\n       name\nfrom users\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let query = try #require(
            build([("database", "app.sqlite"), ("sql", "queries/digest.sql")], directory: scratch.directory).0)
        #expect(query.sql.file == path)
        _ = try Scratch.count(scratch, "alter table users rename column name to display_name")
        do {
            _ = try await query.run(in: context())
            Issue.record("the column does not exist")
        } catch let failure as StepFailure {
            #expect(failure.message == "\(path):3:8: no such column: name", "\(failure.message)")
        }
        let (missing, notThere) = build(
            [("database", "app.sqlite"), ("sql", "queries/nope.sql")], directory: scratch.directory)
        #expect(missing == nil && notThere.map(\.message) == ["SQL file 'queries/nope.sql' does not exist"])
    }

    @Test("a database that is not there, a bad postgres URL and a max-rows out of range are build errors at their key")
    func buildErrors() throws {
        let scratch = try Scratch(appSQL)
        defer { scratch.remove() }
        let (none, diagnostics) = build(
            [("database", "nope.sqlite"), ("sql", "select 1"), ("max-rows", "0")], directory: scratch.directory)
        #expect(none == nil)
        #expect(
            diagnostics.map(\.message).contains { $0.hasPrefix("the SQLite database 'nope.sqlite' does not exist") },
            "\(diagnostics)")
        #expect(diagnostics.map(\.message).contains { $0.contains("'max-rows'") }, "\(diagnostics)")
        let (url, urlDiagnostics) = build(
            [("database", "postgres://reader:s3cret@db:notaport/app"), ("sql", "select 1")],
            directory: scratch.directory)
        #expect(
            url == nil && urlDiagnostics.count == 1 && !urlDiagnostics[0].message.contains("s3cret"),
            "\(urlDiagnostics)")
    }

    @Test("more rows than max-rows fail the step; the timeout stops a query that runs on", .timeLimit(.minutes(1)))
    func limits() async throws {
        let scratch = try Scratch(appSQL)
        defer { scratch.remove() }
        let capped = try #require(
            build(
                [("database", "app.sqlite"), ("sql", "select * from users"), ("max-rows", "2")],
                directory: scratch.directory
            ).0)
        do {
            _ = try await capped.run(in: context())
            Issue.record("three rows are more than two")
        } catch let failure as StepFailure {
            #expect(
                failure.message.hasSuffix("the query returns more than max-rows (2) rows; no later step used any"),
                "\(failure.message)")
        }
        let endless = try #require(
            build(
                [
                    ("database", "app.sqlite"), ("timeout", "1s"),
                    ("sql", "with recursive n(i) as (select 1 union all select i + 1 from n) select count(*) from n"),
                ],
                directory: scratch.directory
            ).0)
        do {
            _ = try await endless.run(in: context())
            Issue.record("it never ends")
        } catch let failure as StepFailure {
            #expect(failure.message.contains("ran past its timeout"), "\(failure.message)")
        }
    }

    @Test("the source digest names the database, the SQL, the arguments and the limit, never a password")
    func sourceDigest() throws {
        let scratch = try Scratch(appSQL)
        defer { scratch.remove() }
        let one = try #require(
            build([("database", "app.sqlite"), ("sql", "select 1 as a")], directory: scratch.directory).0)
        let same = try #require(
            build([("database", "app.sqlite"), ("sql", "select 1 as a")], directory: scratch.directory).0)
        let other = try #require(
            build(
                [("database", "app.sqlite"), ("sql", "select 1 as a"), ("arguments", ["x"])],
                directory: scratch.directory
            ).0)
        #expect(one.sourceDigest == same.sourceDigest && one.sourceDigest != other.sourceDigest)
        let withPassword = try #require(
            build([("database", "postgres://reader:one@db/app"), ("sql", "select 1")], directory: scratch.directory).0)
        let newPassword = try #require(
            build([("database", "postgres://reader:two@db/app"), ("sql", "select 1")], directory: scratch.directory).0)
        #expect(withPassword.sourceDigest == newPassword.sourceDigest, "a new password is the same database")
        #expect(!withPassword.database.shown.contains("one"))
    }

    @Test("a PostgreSQL password comes from the run's environment (--env-file, serve's settings), not this process's")
    func passwordFromTheRunsEnvironment() throws {
        let scratch = try Scratch(appSQL)
        defer { scratch.remove() }
        let step = try #require(
            build(
                [("database", "postgres://reader@db/app"), ("sql", "select 1")], directory: scratch.directory,
                environment: ["PGPASSWORD": "from-the-env-file"]
            ).0)
        guard case .postgres(let location) = step.database else {
            Issue.record("not PostgreSQL: \(step.database)")
            return
        }
        #expect(location.password == "from-the-env-file")
        let without = try #require(
            build([("database", "postgres://reader@db/app"), ("sql", "select 1")], directory: scratch.directory).0)
        guard case .postgres(let bare) = without.database else { return }
        #expect(bare.password == nil || bare.password == "", "the process's PGPASSWORD is not read")
    }
}
