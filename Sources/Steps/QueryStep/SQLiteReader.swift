import PipelineCore
import RunStore
import SQLiteRunStore

/// Reads a query's rows from a SQLite file through the journal's read-only query (the one target that speaks
/// SQLite), into the step's row sink, with the step's column rules, row limit and failures.
struct SQLiteReader {
    /// The database file.
    let path: String
    /// How messages name it.
    let shown: String

    /// Prepares `sql` (never runs it): the columns its rows would have, or why SQLite refuses it. `validate` and every
    /// run's build ask this, so an SQL error is found before any step sends.
    func columns(of sql: String, arguments: Int) throws(QueryFailure) -> [String] {
        let columns: [String]
        do {
            columns = try SQLiteReadOnlyQuery(path: path, shown: shown).columns(of: sql, arguments: arguments)
        } catch {
            throw QueryFailure(error)
        }
        if let problem = QueryColumns.problem(columns) { throw QueryFailure.sql(problem) }
        return columns
    }

    /// Runs `sql` with `arguments` bound as `$1`, `$2`, … (text), putting each row in `sink`.
    func read(_ sql: String, arguments: [String], timeout: Duration, maxRows: Int, into sink: RowSink) async throws {
        do {
            try await SQLiteReadOnlyQuery(path: path, shown: shown).read(
                sql, arguments: arguments, timeout: timeout, begin: sink.beginChecked,
                row: { values in try await sink.addLimited(values, maxRows: maxRows) })
        } catch let error as ReadOnlyQueryError {
            throw QueryFailure(error)
        }
    }
}

extension RowSink {
    /// Starts the rows with `columns`, refused when they cannot name row fields.
    func beginChecked(_ columns: [String]) throws {
        if let problem = QueryColumns.problem(columns) { throw QueryFailure.sql(problem) }
        begin(columns: columns)
    }

    /// Adds a row, refused past the step's `max-rows`.
    func addLimited(_ values: [String?], maxRows: Int) async throws {
        guard count < maxRows else {
            throw QueryFailure.tooManyRows("the query returns more than max-rows (\(maxRows)) rows")
        }
        try await add(values)
    }
}
