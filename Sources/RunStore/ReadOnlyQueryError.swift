/// Why a read-only query of an application's database (the `query` step's, through a store's read-only query) failed,
/// in the database's words.
package enum ReadOnlyQueryError: Error, Sendable, Equatable {
    /// The database refused the SQL, pointing at a 0-based character `offset` in it when it says where.
    case sql(String, offset: Int?)
    /// The database could not be opened or reached, or refused the login.
    case connection(String)
    /// The query ran past its timeout.
    case timeout(String)
    /// A value that cannot be read as text.
    case value(String)
}
