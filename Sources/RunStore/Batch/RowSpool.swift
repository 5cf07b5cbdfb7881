import PipelineCore

/// Where a run keeps the rows a step produced (a query's) for the steps that read them: a table in the run store,
/// so a resumed run and the other parts of a split run read the rows the source gave, never a fresh query. A new run
/// (one that is not a resume) reads its sources afresh into a spool of its own generation.
///
/// A spool is named by the run's identity and generation (the parts of a split run share both), the step's position
/// and a digest of its source (what the step read: the database, the SQL and its arguments; step positions are 1-based). One process fills it,
/// holding the spool's lock; the others wait for it to complete, and take it over when its filler died.
package protocol RowSpool: AnyObject, Sendable {
    /// The spool of this run's identity and generation for `step` and `source` when it is complete; else takes its lock and starts
    /// it afresh (rows a dead filler left go) for this process to fill; else (another process holds the lock) `.busy`.
    func claimSpool(step: Int, source: String, now: Double) async throws(LedgerError) -> SpoolClaim
    /// Up to `limit` lines of the spool after row number `after`, in order.
    func spoolLines(_ spool: Int64, after: Int, limit: Int) async throws(LedgerError) -> [String]
    /// The spool of this run's identity and generation for `step` and `source` when it is complete; nil otherwise. Only
    /// looks (a dry run, and a new run comparing its data with a completed run's, read what that run kept).
    func completedSpool(step: Int, source: String) async throws(LedgerError) -> SpooledRows?
    /// Removes the lines of this run's spool for `step` and `source`, keeping its record (count and digest): a run that
    /// ran to its end never reads them again, and a later run compares with the digest alone.
    func discardLines(step: Int, source: String) async throws(LedgerError)
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
    /// Gives the lock back (after `complete`, or after a failure, leaving the spool to be filled again).
    func release() async
}
