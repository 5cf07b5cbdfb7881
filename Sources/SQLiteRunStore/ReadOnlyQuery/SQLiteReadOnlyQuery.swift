import CSQLite
import RunStore

/// A read-only query against an application's SQLite file (the `query` step's): the file opened read-only (and
/// `query_only`, so not even a pragma writes), one statement, with a time limit checked as SQLite works. SQLite's C
/// API stays in this target, the journal's: the step sees column names, text and `ReadOnlyQueryError`.
package struct SQLiteReadOnlyQuery: Sendable {
    /// The database file.
    package let path: String
    /// How messages name it.
    package let shown: String

    package init(path: String, shown: String) {
        self.path = path
        self.shown = shown
    }

    /// Prepares `sql` (never runs it): the names of the columns its rows would have, or why SQLite refuses it (a syntax
    /// error, a table or column the database does not have, a write, more than one statement, too few `arguments`).
    package func columns(of sql: String, arguments: Int) throws(ReadOnlyQueryError) -> [String] {
        let db = try open(busyTimeout: .seconds(2))
        defer { sqlite3_close_v2(db) }
        let statement = try prepare(sql, in: db, arguments: arguments)
        defer { sqlite3_finalize(statement) }
        return Self.columns(of: statement)
    }

    /// Runs `sql` with `arguments` bound as `$1`, `$2`, … (text): `begin` gets the column names before the first row,
    /// `row` each row's cells. What the two throw is rethrown as it is; the database's own failures are
    /// `ReadOnlyQueryError`s. The time `row` takes does not count against `timeout`.
    package func read(
        _ sql: String, arguments: [String], timeout: Duration,
        begin: ([String]) throws -> Void, row: ([String?]) async throws -> Void
    ) async throws {
        let db = try open(busyTimeout: timeout)
        defer { sqlite3_close_v2(db) }
        // The limit: SQLite calls the handler every 1,000 virtual-machine steps; past the deadline it interrupts.
        let deadline = Deadline(ContinuousClock.now + timeout)
        let context = Unmanaged.passRetained(deadline)
        defer { context.release() }
        sqlite3_progress_handler(
            db, 1_000,
            { pointer in
                guard let pointer else { return 0 }
                return Unmanaged<Deadline>.fromOpaque(pointer).takeUnretainedValue().hasPassed ? 1 : 0
            }, context.toOpaque())
        let statement = try prepare(sql, in: db, arguments: arguments.count)
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            // `$1` is SQLite's named parameter "$1"; `?1` and `?` number the same way.
            var position = sqlite3_bind_parameter_index(statement, "$\(index + 1)")
            if position == 0, index < Int(sqlite3_bind_parameter_count(statement)) { position = Int32(index + 1) }
            guard position > 0 else { continue }
            sqlite3_bind_text(statement, position, argument, -1, sqliteTransient)
        }
        let columns = Self.columns(of: statement)
        try begin(columns)
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else {
                if result == SQLITE_INTERRUPT {
                    throw ReadOnlyQueryError.timeout("the query ran past its timeout of \(timeout) and was stopped")
                }
                throw failure(db, result, sql: sql)
            }
            var values: [String?] = []
            values.reserveCapacity(columns.count)
            for column in 0..<Int32(columns.count) {
                values.append(
                    sqlite3_column_type(statement, column) == SQLITE_NULL
                        ? nil : sqlite3_column_text(statement, column).map { String(cString: $0) })
            }
            let writing = ContinuousClock.now
            try await row(values)
            deadline.extend(by: ContinuousClock.now - writing)
        }
    }

    /// Opens the file read-only (and `query_only`, so not even a pragma writes).
    private func open(busyTimeout: Duration) throws(ReadOnlyQueryError) -> OpaquePointer {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard let db = handle, opened == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw ReadOnlyQueryError.connection("cannot open the SQLite database '\(shown)': \(message)")
        }
        sqlite3_busy_timeout(db, Int32(clamping: busyTimeout.components.seconds * 1000))
        sqlite3_exec(db, "PRAGMA query_only = 1", nil, nil, nil)
        return db
    }

    /// The one read-only statement of `sql`, which takes at most `arguments` parameters.
    private func prepare(_ sql: String, in db: OpaquePointer, arguments: Int) throws(ReadOnlyQueryError)
        -> OpaquePointer
    {
        var statementHandle: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let prepared = sql.withCString { text in
            let result = sqlite3_prepare_v2(db, text, -1, &statementHandle, &tail)
            let rest = tail.map { String(cString: $0) } ?? ""
            return (result, rest)
        }
        guard prepared.0 == SQLITE_OK, let statement = statementHandle else {
            throw failure(db, prepared.0, sql: sql)
        }
        guard Self.isEmpty(prepared.1, in: db) else {
            sqlite3_finalize(statement)
            throw ReadOnlyQueryError.sql(
                "the SQL holds more than one statement; a query runs one SELECT", offset: nil)
        }
        guard sqlite3_stmt_readonly(statement) != 0 else {
            sqlite3_finalize(statement)
            throw ReadOnlyQueryError.sql(
                "the statement would write to the database; a query only reads (SELECT or WITH … SELECT)", offset: nil)
        }
        let parameters = Int(sqlite3_bind_parameter_count(statement))
        guard parameters <= arguments else {
            sqlite3_finalize(statement)
            throw ReadOnlyQueryError.sql(
                "the SQL uses \(parameters) parameter\(parameters == 1 ? "" : "s") and `arguments` gives \(arguments)",
                offset: nil)
        }
        return statement
    }

    /// The result's column names.
    private static func columns(of statement: OpaquePointer) -> [String] {
        (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
    }

    /// True when what follows the statement is only whitespace, semicolons and comments (SQLite prepares nothing of it).
    static func isEmpty(_ tail: String, in db: OpaquePointer) -> Bool {
        var statement: OpaquePointer?
        let result = tail.withCString { sqlite3_prepare_v2(db, $0, -1, &statement, nil) }
        defer { sqlite3_finalize(statement) }
        return result == SQLITE_OK && statement == nil
    }

    private func failure(_ db: OpaquePointer, _ code: Int32, sql: String) -> ReadOnlyQueryError {
        if code == SQLITE_INTERRUPT { return .timeout("the query ran past its timeout and was stopped") }
        // A lock held past the busy timeout is the database's state, not the SQL's; a file that is not a database is `database:`'s.
        if code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED {
            return .timeout("the database stayed locked past the timeout")
        }
        if code & 0xFF == SQLITE_NOTADB { return .connection("'\(shown)' is not a SQLite database") }
        let offset = Int(sqlite3_error_offset(db))
        return .sql(
            String(cString: sqlite3_errmsg(db)), offset: offset >= 0 ? Self.characterOffset(sql, utf8: offset) : nil)
    }

    /// SQLite points at a byte; messages count characters.
    static func characterOffset(_ text: String, utf8 offset: Int) -> Int {
        let utf8 = text.utf8
        guard let index = utf8.index(utf8.startIndex, offsetBy: offset, limitedBy: utf8.endIndex) else {
            return text.count
        }
        return text.distance(from: text.startIndex, to: String.Index(index, within: text) ?? text.endIndex)
    }
}

/// The time a query may run until, read by SQLite's progress handler.
private final class Deadline: @unchecked Sendable {
    // Read by SQLite's handler on the thread that steps the statement, moved on that same thread between steps.
    private var instant: ContinuousClock.Instant

    init(_ instant: ContinuousClock.Instant) {
        self.instant = instant
    }

    var hasPassed: Bool { ContinuousClock.now >= instant }

    /// Moves the deadline on by time spent outside the database.
    func extend(by duration: Duration) { instant += duration }
}
