import PipelineCore
import PostgresRunStore
import RunStore

/// Reads a query's rows from PostgreSQL through the run store's read-only query (the one target that speaks
/// postgres-nio), into the step's row sink, with the step's column rules, row limit and failures.
struct PostgresReader {
    /// Where the database is (its password never printed).
    let location: PostgresLocation

    /// Runs `sql` with `arguments` bound as `$1`, `$2`, … (text), putting each row in `sink`.
    func read(_ sql: String, arguments: [String], timeout: Duration, maxRows: Int, into sink: RowSink) async throws {
        do {
            try await PostgresReadOnlyQuery(location: location).read(
                sql, arguments: arguments, timeout: timeout, begin: sink.beginChecked,
                row: { values in try await sink.addLimited(values, maxRows: maxRows) })
        } catch let error as ReadOnlyQueryError {
            throw QueryFailure(error)
        }
    }
}
