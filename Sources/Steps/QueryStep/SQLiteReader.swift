import CSQLite
import Foundation
import PipelineCore
import RunStore

/// Reads a query's rows from a SQLite file, opened read-only (and `query_only`, so not even a pragma writes), one
/// statement, with a time limit checked as SQLite works.
struct SQLiteReader {
    /// The database file.
    let path: String
    /// How messages name it.
    let shown: String

    /// Prepares `sql` (never runs it): the columns its rows would have, or why SQLite refuses it (a syntax error, a
    /// table or column the database does not have, a write, more than one statement, too few `arguments`). `validate`
    /// and every run's build ask this, so an SQL error is found before any step sends.
    func columns(of sql: String, arguments: Int) throws(QueryFailure) -> [String] {
        let db = try open(busyTimeout: .seconds(2))
        defer { sqlite3_close_v2(db) }
        let statement = try prepare(sql, in: db, arguments: arguments)
        defer { sqlite3_finalize(statement) }
        return try columns(of: statement)
    }

    /// Runs `sql` with `arguments` bound as `$1`, `$2`, … (text), putting each row in `sink`.
    func read(_ sql: String, arguments: [String], timeout: Duration, maxRows: Int, into sink: RowSink) async throws {
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
            sqlite3_bind_text(statement, position, argument, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        let columns = try columns(of: statement)
        sink.begin(columns: columns)
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else {
                if result == SQLITE_INTERRUPT {
                    throw QueryFailure.timeout("the query ran past its timeout of \(timeout) and was stopped")
                }
                throw failure(db, result, sql: sql)
            }
            guard sink.count < maxRows else {
                throw QueryFailure.tooManyRows("the query returns more than max-rows (\(maxRows)) rows")
            }
            var values: [String?] = []
            values.reserveCapacity(columns.count)
            for column in 0..<Int32(columns.count) {
                values.append(
                    sqlite3_column_type(statement, column) == SQLITE_NULL
                        ? nil : sqlite3_column_text(statement, column).map { String(cString: $0) })
            }
            // The limit is the database's time: writing the rows to the run's spool does not count against it.
            let writing = ContinuousClock.now
            try await sink.add(values)
            deadline.extend(by: ContinuousClock.now - writing)
        }
    }

    /// Opens the file read-only (and `query_only`, so not even a pragma writes).
    private func open(busyTimeout: Duration) throws(QueryFailure) -> OpaquePointer {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard let db = handle, opened == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw QueryFailure.connection("cannot open the SQLite database '\(shown)': \(message)")
        }
        sqlite3_busy_timeout(db, Int32(clamping: busyTimeout.components.seconds * 1000))
        sqlite3_exec(db, "PRAGMA query_only = 1", nil, nil, nil)
        return db
    }

    /// The one read-only statement of `sql`, which takes at most `arguments` parameters.
    private func prepare(_ sql: String, in db: OpaquePointer, arguments: Int) throws(QueryFailure) -> OpaquePointer {
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
            throw QueryFailure.sql("the SQL holds more than one statement; a query runs one SELECT")
        }
        guard sqlite3_stmt_readonly(statement) != 0 else {
            sqlite3_finalize(statement)
            throw QueryFailure.sql(
                "the statement would write to the database; a query only reads (SELECT or WITH … SELECT)")
        }
        let parameters = Int(sqlite3_bind_parameter_count(statement))
        guard parameters <= arguments else {
            sqlite3_finalize(statement)
            throw QueryFailure.sql(
                "the SQL uses \(parameters) parameter\(parameters == 1 ? "" : "s") and `arguments` gives \(arguments)")
        }
        return statement
    }

    /// The result's column names, refused when they cannot name row fields.
    private func columns(of statement: OpaquePointer) throws(QueryFailure) -> [String] {
        let columns = (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
        if let problem = QueryColumns.problem(columns) { throw QueryFailure.sql(problem) }
        return columns
    }

    /// True when what follows the statement is only whitespace, semicolons and comments (SQLite prepares nothing of it).
    static func isEmpty(_ tail: String, in db: OpaquePointer) -> Bool {
        var statement: OpaquePointer?
        let result = tail.withCString { sqlite3_prepare_v2(db, $0, -1, &statement, nil) }
        defer { sqlite3_finalize(statement) }
        return result == SQLITE_OK && statement == nil
    }

    private func failure(_ db: OpaquePointer, _ code: Int32, sql: String) -> QueryFailure {
        if code == SQLITE_INTERRUPT { return QueryFailure.timeout("the query ran past its timeout and was stopped") }
        // A lock held past the busy timeout is the database's state, not the SQL's; a file that is not a database is `database:`'s.
        if code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED {
            return QueryFailure.timeout("the database stayed locked past the timeout")
        }
        if code & 0xFF == SQLITE_NOTADB { return QueryFailure.connection("'\(shown)' is not a SQLite database") }
        let offset = Int(sqlite3_error_offset(db))
        return QueryFailure.sql(
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
final class Deadline: @unchecked Sendable {
    // Read by SQLite's handler on the thread that steps the statement, moved on that same thread between steps.
    private var instant: ContinuousClock.Instant

    init(_ instant: ContinuousClock.Instant) {
        self.instant = instant
    }

    var hasPassed: Bool { ContinuousClock.now >= instant }

    /// Moves the deadline on by time spent outside the database.
    func extend(by duration: Duration) { instant += duration }
}

/// Rules the result's columns must follow to become rows.
enum QueryColumns {
    /// Why the columns cannot name row fields (a name used twice, an empty one); nil when they can.
    static func problem(_ columns: [String]) -> String? {
        var seen: Set<String> = []
        for (position, name) in columns.enumerated() {
            if name.isEmpty { return "column \(position + 1) of the result has no name; give it one with AS" }
            guard seen.insert(name.lowercased()).inserted else {
                return "the result has two columns named '\(name)'; rows need distinct names (select … AS another_name)"
            }
        }
        return nil
    }
}
