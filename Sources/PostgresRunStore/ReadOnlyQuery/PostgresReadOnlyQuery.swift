import Foundation
import Logging
import PostgresNIO
import RunStore

/// A read-only query against an application's PostgreSQL database (the `query` step's): a connection of its own with
/// the run store's TLS settings and URL rules, a read-only transaction with a statement and lock timeout, rows
/// streamed as the server sends them, each cell as text. postgres-nio stays at this one edge: the step sees column
/// names, text and `ReadOnlyQueryError`.
package struct PostgresReadOnlyQuery: Sendable {
    /// Where the database is (its password never printed).
    package let location: PostgresLocation

    package init(location: PostgresLocation) {
        self.location = location
    }

    /// Runs `sql` with `arguments` bound as `$1`, `$2`, … (text): `begin` gets the column names before the first row,
    /// `row` each row's cells. What the two throw is rethrown as it is; the database's own failures are
    /// `ReadOnlyQueryError`s.
    package func read(
        _ sql: String, arguments: [String], timeout: Duration,
        begin: ([String]) throws -> Void, row: ([String?]) async throws -> Void
    ) async throws {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnections.connect(location, doing: "running a query", role: "query")
        } catch {
            throw ReadOnlyQueryError.connection(
                error.message.replacingOccurrences(of: "the run store", with: "the query's database"))
        }
        let logger = Logger(label: "pushline.query", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            // Read-only: a typo cannot write; the timeouts: it cannot run on, nor wait on a lock, for longer.
            let milliseconds = timeout.components.seconds * 1000
            try await connection.query("BEGIN READ ONLY", logger: logger)
            try await connection.query(
                PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(milliseconds)"), logger: logger)
            try await connection.query(
                PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \(milliseconds)"), logger: logger)
            var binds = PostgresBindings()
            for argument in arguments { binds.append(argument) }
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            var begun = false
            for try await cells in rows {
                if !begun {
                    try Caller.rethrowing { try begin(cells.map(\.columnName)) }
                    begun = true
                }
                var values: [String?] = []
                for cell in cells { values.append(try Self.text(of: cell)) }
                do { try await row(values) } catch { throw Caller(error: error) }
            }
            try await connection.query("ROLLBACK", logger: logger)
        } catch let caller as Caller {
            try? await connection.close()
            throw caller.error
        } catch {
            try? await connection.close()
            throw Self.failure(error)
        }
        // Every row is in; a close that fails loses nothing.
        try? await connection.close()
    }

    /// What `begin` or `row` threw, kept apart from the database's failures on its way out.
    private struct Caller: Error {
        let error: any Error

        static func rethrowing(_ body: () throws -> Void) throws(Caller) {
            do { try body() } catch { throw Caller(error: error) }
        }
    }

    /// A cell as text: numbers with their digits, booleans `true`/`false`, times in ISO 8601 (UTC), null as nil.
    static func text(of cell: PostgresCell) throws -> String? {
        guard cell.bytes != nil else { return nil }
        switch cell.dataType {
        case .int2: return String(try cell.decode(Int16.self))
        case .int4: return String(try cell.decode(Int32.self))
        case .int8: return String(try cell.decode(Int64.self))
        case .float4: return String(try cell.decode(Float.self))
        case .float8: return String(try cell.decode(Double.self))
        case .bool: return try cell.decode(Bool.self) ? "true" : "false"
        case .numeric: return "\(try cell.decode(Decimal.self))"
        case .timestamp, .timestamptz: return try cell.decode(Date.self).formatted(.iso8601)
        case .date: return String(try cell.decode(Date.self).formatted(.iso8601).prefix(10))
        case .uuid: return try cell.decode(UUID.self).uuidString.lowercased()
        case .text, .varchar, .bpchar, .name, .json, .jsonb: return try cell.decode(String.self)
        default:
            throw ReadOnlyQueryError.value(
                "column '\(cell.columnName)' has a type the query step does not read (oid \(cell.dataType.rawValue)); "
                    + "cast it to text in the SQL: \(cell.columnName)::text")
        }
    }

    /// The server's own message, and where in the SQL it points.
    static func failure(_ error: any Error) -> ReadOnlyQueryError {
        if let failure = error as? ReadOnlyQueryError { return failure }
        guard let error = error as? PSQLError else {
            return ReadOnlyQueryError.connection("the database failed: \(error)")
        }
        if let info = error.serverInfo, let message = info[.message] {
            let state = info[.sqlState]
            if state == "57014" {
                return ReadOnlyQueryError.timeout("the query ran past its timeout and was stopped (\(message))")
            }
            // PostgreSQL counts the position in characters from 1.
            return ReadOnlyQueryError.sql(
                message + (state.map { " (SQLSTATE \($0))" } ?? ""),
                offset: info[.position].flatMap(Int.init).map { $0 - 1 })
        }
        return ReadOnlyQueryError.connection("the connection to the database failed (\(error.code))")
    }
}
