import Foundation
import HubWire
import PipelineCore
import RunStore

/// `query`: reads rows from the app's database (SQLite or PostgreSQL) with one read-only SQL statement, for a later
/// step's `for-each`. The rows are spooled in the run store, so a resumed run and every part of a split run send the
/// rows this query returned, never a fresh query's.
package struct QueryStep: DeclaredStep {
    /// The YAML key of this step.
    package static let id = "query"
    /// One line for docs.
    package static let summary =
        "Reads rows from a SQLite or PostgreSQL database with one read-only SELECT, for a later step's for-each."

    /// What `query` hands to later steps.
    package struct Outputs: DeclaredOutputs {
        /// `rows`, once read.
        @Output(
            "rows", "the rows, for a later send's or register's `for-each: ${steps.ID.rows}` (kept in the run store)")
        package var rows: SpooledRows? = nil
        /// `count`.
        @Output("count", "how many rows") package var count = 0

        /// No rows yet.
        package init() {}
    }

    /// Examples as they appear under `steps:`.
    package static let examples = [
        "- query: { database: ../data/app.sqlite, sql: \"select user_id as \\\"userId\\\", name from users where digest = 1\" }",
        "- query:\n    database: postgres://reader@db.internal/app?sslmode=verify-full\n    sql: ../data/digest.sql\n    arguments: [eu]\n    timeout: 2m",
    ]

    /// The database.
    package let database: QueryDatabase
    /// The SQL, and where it is written.
    package let sql: QuerySQL
    /// Bound as `$1`, `$2`, ….
    package let arguments: [String]
    /// Statement time limit, seconds.
    package let timeout: Int64
    /// Most rows.
    package let maxRows: Int
    /// The result's columns, when the SQL was prepared at build time (a SQLite file); nil for PostgreSQL.
    package var preparedColumns: [String]?

    /// Creates the step directly (tests, programmatic use).
    package init(
        database: QueryDatabase, sql: QuerySQL, arguments: [String] = [], timeout: Int64 = 30, maxRows: Int = 1_000_000
    ) {
        self.database = database
        self.sql = sql
        self.arguments = arguments
        self.timeout = timeout
        self.maxRows = maxRows
    }

    /// The keys of `query`, each declared once.
    package struct Options: DeclaredOptions {
        /// `database`.
        @Key(
            .text(
                "database", required: true,
                examples: [
                    "data/app.sqlite", "postgres://reader@db.internal/app?sslmode=verify-full", "${env:APP_DATABASE}",
                ],
                "a SQLite file (relative to the pipeline) or a postgres:// URL with the run store's options (sslmode, sslrootcert, …); the password from the URL, PGPASSWORD or ${file:…}, never shown"
            ))
        package var database: String?
        /// `sql`.
        @Key(
            .text(
                "sql", required: true,
                examples: ["select user_id as \"userId\", token from devices where active", "queries/digest.sql"],
                "one SELECT (or WITH … SELECT), inline or a .sql file relative to the pipeline; each result column becomes a row field by its name"
            ))
        package var sql: String?
        /// `arguments`.
        @Key(
            .stringList(
                "arguments", examples: ["[\"${param:since}\", \"${env:REGION}\"]"],
                "values bound as $1, $2, … (text; never put into the SQL); cast in the SQL where a number is compared, e.g. $1::int"
            ))
        package var arguments: [(value: String, node: ConfigNode)]
        /// `timeout`, in seconds.
        @Key(
            .duration(
                "timeout", in: 1...3600, default: 30, examples: ["30s", "5m"],
                "how long the statement may run (and wait on a lock) before it is stopped; for PostgreSQL, streaming its rows into the spool counts too"
            ))
        package var timeout: Int64
        /// `max-rows`.
        @Key(
            .integer(
                "max-rows", in: 1...100_000_000, default: 1_000_000, examples: ["50000"],
                "the most rows the query may return; more fails the step before any later step sends (nothing is cut silently)"
            ))
        package var maxRows: Int

        /// Every key at its default.
        package init() {}
    }

    /// Reads the database and the SQL (a `.sql` file too), then prepares the SQL against a SQLite file.
    package static func build(_ options: Options, reporting reader: OptionReader, in context: BuildContext)
        -> QueryStep?
    {
        let database = options.database.flatMap { text in
            options.$database.node.flatMap { QueryDatabase.read(text, at: $0, in: context, options: reader) }
        }
        let sql = options.sql.flatMap { text in
            options.$sql.node.flatMap { QuerySQL.read(text, at: $0, in: context, options: reader) }
        }
        guard let database, let sql, !options.$timeout.isRefused, !options.$maxRows.isRefused,
            !options.$arguments.isRefused
        else { return nil }
        let step = QueryStep(
            database: database, sql: sql, arguments: options.arguments.map(\.value), timeout: options.timeout,
            maxRows: options.maxRows)
        return step.prepared(
            reporting: reader, sqlAt: options.$sql.node ?? reader.node,
            databaseAt: options.$database.node ?? reader.node, in: context)
    }

    /// The step with its columns, when its SQL is prepared (never run) against a SQLite file, so the SQL's errors and
    /// its columns are known before anything sends; nil after reporting an error in the SQL.
    private func prepared(
        reporting reader: OptionReader, sqlAt sqlNode: ConfigNode, databaseAt databaseNode: ConfigNode,
        in context: BuildContext
    ) -> QueryStep? {
        guard case .sqlite(let path, let shown) = database else { return self }
        var step = self
        do throws(QueryFailure) {
            step.preparedColumns = try SQLiteReader(path: path, shown: shown).columns(
                of: sql.text, arguments: arguments.count)
        } catch {
            switch error {
            case .sql(let message, _) where !context.document.isValidation && Self.dependsOnTheSchema(message):
                // A table or column missing now may be a migration not run yet: the run's query finds out, as a failure of
                // this step, so a `when: always` summary still tells. `validate` says it now.
                return step
            case .sql(let message, let offset):
                let place = offset.flatMap(sql.place)
                // Where the place inside cannot be put on a line of the file, the message says it.
                let inside = place == nil ? offset.map { QuerySQL.lineAndColumn(sql.text, offset: $0) } : nil
                reader.diagnostics.error(
                    "the SQL\(inside.map { ", line \($0.line), column \($0.column)" } ?? ""): \(message)",
                    at: place ?? sql.file.map { SourceLocation(file: $0, line: 1, column: 1) } ?? sqlNode.location,
                    step: reader.step,
                    hint: "fix the SQL; SQLite prepared it (without running it) against \(database.shown)")
            case .connection(let message):
                reader.error(message, at: databaseNode, hint: "a SQLite file, or a postgres:// URL")
            case .timeout(let message), .tooManyRows(let message), .value(let message):
                reader.diagnostics.warning(
                    "the SQL could not be checked before the run: \(message)", at: sqlNode.location, step: reader.step,
                    hint: "the run checks it when it queries")
                return step
            }
            return nil
        }
        return step
    }

    /// True for SQLite's words for SQL that names what the database does not hold (yet).
    static func dependsOnTheSchema(_ message: String) -> Bool {
        ["no such table", "no such column", "no such function", "no such collation sequence", "no such module"].contains
        { message.hasPrefix($0) }
    }

    /// The columns of `rows`, when the SQL was prepared.
    package func columns(of output: String) -> [String]? {
        output == "rows" ? preparedColumns : nil
    }

    /// Its rows come from outside the run: a resumed run reads them back, never queries again.
    package var recordsCompletion: Bool { true }

    /// A query only reads, and its options use no earlier output (one that does is built when it runs, as another
    /// step): a new run reads it before any other step.
    package var readsSource: Bool { true }

    /// What the rows are read from, as a digest: the database (never its password), the SQL, the arguments and the
    /// row limit. It names the run's spool of these rows.
    package var sourceDigest: String {
        ContentDigest.hex(
            ["query-v1", database.identity, sql.text, "\(maxRows)"].joined(separator: "\n") + "\n"
                + JSONRowLine.array(arguments))
    }

    /// Runs the query into the run's spool (or reads the rows spooled earlier) and hands them on.
    package func run(in context: StepContext) async throws -> StepResult {
        let spooler = RowSpooler(step: context.stepIndex, source: sourceDigest)
        let started = ContinuousClock.now
        let (rows, origin) = try await spooler.rows(in: context) { sink in
            do {
                switch database {
                case .sqlite(let path, let shown):
                    try await SQLiteReader(path: path, shown: shown).read(
                        sql.text, arguments: arguments, timeout: .seconds(timeout), maxRows: maxRows, into: sink)
                case .postgres(let location):
                    try await PostgresReader(location: location).read(
                        sql.text, arguments: arguments, timeout: .seconds(timeout), maxRows: maxRows, into: sink)
                }
            } catch let failure as QueryFailure {
                throw stepFailure(failure)
            }
        }
        let elapsed = ContinuousClock.now - started
        let counted = "\(ItemCounts.grouped(rows.count)) row\(rows.count == 1 ? "" : "s")"
        let summary =
            switch origin {
            case .read:
                "read \(counted) from \(database.shown) in \(String(format: "%.1f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)) s"
                    + (context.isDryRun ? " (a dry run reads; it writes nothing)" : "")
            case .spooled:
                "\(counted) spooled from \(database.shown) earlier, by this run or another part of it (not queried again)"
            }
        var lines = rows.columns.isEmpty ? [] : ["columns: \(rows.columns.joined(separator: ", "))"]
        if context.isDryRun, let file = rows.file { lines += Self.preview(file, limit: 5) }
        var result = StepResult(
            summary: summary, lines: lines,
            data: .object([
                ReportField("database", .string(database.shown)), ReportField("rows", rows.report),
            ]))
        var outputs = Outputs()
        outputs.rows = rows
        outputs.count = rows.count
        result.handOn(outputs)
        return result
    }

    /// The first rows of a dry run's file, as lines.
    static func preview(_ file: String, limit: Int) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: file) else { return [] }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64 * 1024)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let lines = head.split(separator: "\n").prefix(limit).map { "row: \($0)" }
        return lines
    }

    /// A failure as the step reports it: the database's message, where in the pipeline (or `.sql` file) the SQL is.
    func stepFailure(_ failure: QueryFailure) -> StepFailure {
        switch failure {
        case .sql(let message, let offset):
            StepFailure(
                "\(sql.locate(offset)): \(message)",
                hint: "fix the SQL; `pushline run --dry-run` runs the query without sending"
            ).coded(.querySQL)
        case .connection(let message):
            StepFailure(
                message,
                hint: "check `database:` (the file, or the server, user and password) and that the database is up"
            ).coded(.queryConnection)
        case .timeout(let message):
            StepFailure("\(sql.locate(nil)): \(message)", hint: "raise `timeout:` or make the query cheaper (an index)")
                .coded(.queryTimeout)
        case .tooManyRows(let message):
            StepFailure(
                "\(sql.locate(nil)): \(message); no later step used any", hint: "raise `max-rows:`, or narrow the query"
            ).coded(.queryTooManyRows)
        case .value(let message):
            StepFailure("\(sql.locate(nil)): \(message)", hint: "every column becomes text; cast the others in the SQL")
                .coded(.queryValue)
        }
    }
}

extension QueryStep {
    /// The codes a query's failure has, with what each means.
    package static let failureCodes: [(StepFailure.Code, String)] = [
        (.querySQL, "`query`: the database refused the SQL (its syntax, a table or column it lacks)"),
        (.queryConnection, "`query`: the database could not be opened or reached, or refused the login"),
        (.queryTimeout, "`query`: the query ran past its `timeout:`"),
        (.queryTooManyRows, "`query`: the query returned more than `max-rows:`"),
        (.queryValue, "`query`: a value could not be read as text"),
    ]
}

extension StepFailure.Code {
    /// The database refused the SQL (syntax, a table or column it lacks, a write).
    static let querySQL: Self = "query.sql"
    /// The database could not be opened or reached, or refused the login.
    static let queryConnection: Self = "query.connection"
    /// The query ran past its `timeout:`.
    static let queryTimeout: Self = "query.timeout"
    /// The query returned more than `max-rows:`.
    static let queryTooManyRows: Self = "query.too-many-rows"
    /// A value the step cannot read as text.
    static let queryValue: Self = "query.value"
}
