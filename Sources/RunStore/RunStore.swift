import PipelineCore

/// Where runs are kept: each run of a pipeline, every item it sent, and the lock that lets one run of a
/// pipeline go at a time.
///
/// The run flow (`RunFlow`) and the `runs` commands talk to this protocol only. The SQLite journal with a
/// file lock (`SQLiteRunStore`) is the first implementation; the PostgreSQL store (`PostgresRunStore`), shared by
/// runs on several machines, is the second. Both pass the same contract suite (`Tests/RunStoreTests`).
///
/// Every write is durable when its method returns. Errors name the store (`location`), never a secret.
///
/// A store is also the `HubPace` its runs share: a hub's pause after throttling, and `rate:` budgets.
package protocol RunStore: HubPace {
    /// Where the store is, for people: a file path or a URL without its password.
    var location: String { get }
    /// True when a run's lock ends only with its process (a file lock): a run left running whose lock is free was
    /// killed. False when the lock can also lapse while its process still exists (a database session that stood
    /// still or was cut off).
    var locksEndWithTheirProcess: Bool { get }

    /// The newest run with this identity (a hex digest the caller computed) that is `shard` (nil: a run of
    /// every row), or nil.
    func latestRun(identity: String, shard: Shard?) async throws(RunStoreError) -> RunRecord?
    /// Every run with this identity, whatever its shard, newest first, at most `limit`.
    func runs(identity: String, limit: Int) async throws(RunStoreError) -> [RunRecord]
    /// Starts a new run of the pipeline named `pipeline`, read from `path`, as `shard` of it when given, in
    /// `generation`, whose steps' longest dedupe window is `dedupeWindow` seconds: a fresh `RunID`, status `.running`.
    func startRun(
        identity: String, pipeline: String, path: String?, shard: Shard?, generation: Int, dedupeWindow: Double?,
        pid: Int32,
        now: Double
    ) async throws(RunStoreError) -> RunRecord
    /// Marks an existing run running again: `pid`, `resumedAt = now`, `resumes += 1`, and `path` when given (where it
    /// is read from now); the previous attempt's end, exit code and summary are cleared. Throws when there is no such
    /// run, or when `lock` (the run's, from this store) was lost to another process: then the other process owns the run.
    func resumeRun(id: String, path: String?, pid: Int32, now: Double, lock: (any RunLock)?) async throws(RunStoreError)
        -> RunRecord
    /// Ends a run with a status other than `.running`, an exit code and an optional JSON summary. Throws when
    /// there is no such run or `state` is `.running`, or when `lock` was lost: a process that was taken over must
    /// not end the run its successor is sending.
    func finishRun(id: String, state: RunStatus, exitCode: Int32, summary: String?, now: Double, lock: (any RunLock)?)
        async throws(RunStoreError)

    /// Runs of the pipeline named `pipeline` the store shows running, live or abandoned, newest first, at most
    /// `limit`: what a new start checks for another split of the pipeline still sending.
    func runningRuns(pipeline: String, limit: Int) async throws(RunStoreError) -> [RunRecord]
    /// Runs, newest first, at most `limit` (none when `limit` is not positive).
    func runs(limit: Int) async throws(RunStoreError) -> [RunRecord]
    /// The run whose id is `id`, or the only run whose id starts with `id`; nil when there is none or `id` is
    /// empty. Throws, listing candidates, when the prefix is ambiguous.
    func run(matching id: String) async throws(RunStoreError) -> RunRecord?
    /// Item counts per step and state, by step, then state in lifecycle order.
    func counts(run: String) async throws(RunStoreError) -> [StepCount]
    /// The steps of a run that completed, with their outputs, in step order.
    func completedSteps(run: String) async throws(RunStoreError) -> [CompletedStep]
    /// Items in `states` (all when empty), by (step, row), at most `limit`.
    func items(run: String, states: [ItemState], limit: Int) async throws(RunStoreError) -> [JournalItem]
    /// Items not accepted, grouped by step, state and reason (`FailureReason`), biggest group first, with up to
    /// `examples` origins each in row order.
    func failureGroups(run: String, examples: Int) async throws(RunStoreError) -> [FailureGroup]
    /// Settles the run's unknown and stale `sending` items (of step `step`, 0-based, or all; of rows in `rows`,
    /// or all) as `resolution`, recording who, when and why. A `partial` run left with nothing unsettled
    /// becomes `completed`. One transaction.
    func resolve(
        run id: String, as resolution: Resolution, step: Int?, rows: [ClosedRange<Int>], by who: String, note: String?,
        now: Double
    ) async throws(RunStoreError) -> Resolved
    /// Items whose idempotency key (with or without its step scope) or origin is `text`, or whose target holds
    /// `text` as a whole word; newest first, at most `limit`; only the runs of the pipeline named `pipeline`
    /// when given, and only those written at or after `since`.
    func find(_ text: String, pipeline: String?, since: Double?, limit: Int) async throws(RunStoreError) -> [FoundItem]
    /// What removing the runs with ids `ids` takes away (runs, items, skip ranges); removed unless `dryRun`, a run's
    /// items in chunks and the run itself last, so a prune cut off halfway leaves runs the next prune removes. Which
    /// runs may go is `PrunePolicy`'s to say.
    func removeRuns(_ ids: [String], dryRun: Bool) async throws(RunStoreError) -> RemovedRuns
    /// Gives the space of removed rows back (to the file system, or for reuse), measuring the store before and after.
    func reclaimSpace() async throws(RunStoreError) -> ReclaimedSpace

    /// The ledger a batch step records `run`'s items in; idempotency keys count across every run in the store (a
    /// default key names the hub it is for, a declared key its pipeline and step, so the key itself is its scope).
    /// `lock` is the run lock the caller holds: a shared store refuses the ledger's writes once that lock was
    /// lost to another process (a fence), so two holders never record sends side by side.
    func ledger(for run: RunRecord, lock: (any RunLock)?) -> any ItemLedger
    /// A ledger that only reads: what a dry run consults. Every write throws.
    func readOnlyLedger() -> any ItemLedger

    /// Where the store last saw the pipeline named `name`, or nil when it never ran here.
    func pipelineHome(name: String) async throws(RunStoreError) -> PipelineHome?
    /// Records where the pipeline named `home.name` was started from now, replacing what was recorded.
    func recordPipelineHome(_ home: PipelineHome) async throws(RunStoreError)

    /// Takes the lock named `pipeline` for `holder`, or says who holds it; never waits for a holder to finish.
    func lock(pipeline: String, holder: LockHolder) async throws(RunStoreError) -> LockAttempt
    /// Whether a live process holds the lock named `pipeline`. A run the store shows `running` whose lock is free
    /// was killed: it is abandoned and resumable. Only reads. Throws when the store cannot tell, so that "cannot
    /// ask" is never taken for "free" (a start would then pass a check meant to stop it).
    func isLocked(pipeline: String) async throws(RunStoreError) -> Bool

    /// Closes the store's connections; the store is not used afterwards. Held locks are released by their own
    /// `release`.
    func close() async
}

extension RunStore {
    /// The newest run of every row (no shard) with this identity, or nil.
    package func latestRun(identity: String) async throws(RunStoreError) -> RunRecord? {
        try await latestRun(identity: identity, shard: nil)
    }

    /// Resumes a run without checking a lock (tools and tests; a live run passes its lock).
    package func resumeRun(id: String, pid: Int32, now: Double) async throws(RunStoreError) -> RunRecord {
        try await resumeRun(id: id, path: nil, pid: pid, now: now, lock: nil)
    }

    /// Resumes a run, keeping the path it was recorded with.
    package func resumeRun(id: String, pid: Int32, now: Double, lock: (any RunLock)?) async throws(RunStoreError)
        -> RunRecord
    {
        try await resumeRun(id: id, path: nil, pid: pid, now: now, lock: lock)
    }

    /// Ends a run without checking a lock (tools and tests; a live run passes its lock).
    package func finishRun(id: String, state: RunStatus, exitCode: Int32, summary: String?, now: Double)
        async throws(RunStoreError)
    {
        try await finishRun(id: id, state: state, exitCode: exitCode, summary: summary, now: now, lock: nil)
    }

    /// Starts a new run of every row.
    package func startRun(identity: String, pipeline: String, pid: Int32, now: Double) async throws(RunStoreError)
        -> RunRecord
    {
        try await startRun(
            identity: identity, pipeline: pipeline, path: nil, shard: nil, generation: 0, dedupeWindow: nil, pid: pid,
            now: now)
    }

    /// Starts a new run, in the first generation.
    package func startRun(identity: String, pipeline: String, shard: Shard?, pid: Int32, now: Double)
        async throws(RunStoreError) -> RunRecord
    {
        try await startRun(
            identity: identity, pipeline: pipeline, path: nil, shard: shard, generation: 0, dedupeWindow: nil, pid: pid,
            now: now)
    }

    /// Starts a new run in `generation`, with no path or dedupe window recorded (tools and tests).
    package func startRun(
        identity: String, pipeline: String, shard: Shard?, generation: Int, pid: Int32,
        now: Double
    ) async throws(RunStoreError) -> RunRecord {
        try await startRun(
            identity: identity, pipeline: pipeline, path: nil, shard: shard, generation: generation, dedupeWindow: nil,
            pid: pid, now: now)
    }
}

extension RunStore {
    /// Most stores' locks are files: they end with their process.
    package var locksEndWithTheirProcess: Bool { true }
}
