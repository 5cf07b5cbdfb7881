/// Where a run keeps the rows a step produced (a query's) for the steps that read them: a table in the run store,
/// so a resumed run, the other parts of a split run and a re-run within the dedupe window read the rows the source
/// gave, never a fresh query.
///
/// A spool is named by the run's identity and generation (the parts of a split run share both), the step's position
/// and a digest of its source (what the step read: the database, the SQL and its arguments). One process fills it,
/// holding the spool's lock; the others wait for it to complete, and take it over when its filler died.
package protocol RowSpool: AnyObject, Sendable {
    /// The newest complete spool a run of the same pipeline made for the step at `step` (1-based) reading `source` (a
    /// digest of what it reads, never a password) at or after `since`
    /// (epoch seconds): a re-run after a fix reads the rows the first run read.
    func reusableSpool(step: Int, source: String, since: Double) async throws(LedgerError) -> SpooledRows?
    /// The spool of this run's identity and generation for `step` and `source` when it is complete; else takes its lock and starts
    /// it afresh (rows a dead filler left go) for this process to fill; else (another process holds the lock) `.busy`.
    func claimSpool(step: Int, source: String, now: Double) async throws(LedgerError) -> SpoolClaim
    /// Up to `limit` lines of the spool after row number `after`, in order.
    func spoolLines(_ spool: Int64, after: Int, limit: Int) async throws(LedgerError) -> [String]
}

/// What claiming a spool found.
package enum SpoolClaim: Sendable {
    /// Every row is there (an earlier attempt of this run, or another part of it, filled it).
    case complete(SpooledRows)
    /// This process fills it.
    case fill(any SpoolFiller)
    /// Another process is filling it now.
    case busy
}

/// The process filling a spool: appends rows in order, then completes it, then gives its lock back.
package protocol SpoolFiller: Sendable {
    /// Appends lines numbered on from the last (the first is row 1), durable when it returns.
    func append(_ lines: [String]) async throws(LedgerError)
    /// Marks the spool complete with what it holds; from then on every reader gets these rows. Throws when another
    /// process took the spool over meanwhile (this one's lock was lost): nothing is completed.
    func complete(columns: [String], count: Int, digest: String, now: Double) async throws(LedgerError) -> SpooledRows
    /// Fills the spool with a copy of `rows` (an earlier run's, reused within the dedupe window) and completes it, in one
    /// transaction: every part of this run, and a resume of it, then finds the rows under this run's own spool, whatever
    /// becomes of the earlier run.
    func copy(_ rows: SpooledRows, now: Double) async throws(LedgerError) -> SpooledRows
    /// Gives the lock back (after `complete`, or after a failure, leaving the spool to be filled again).
    func release() async
}
