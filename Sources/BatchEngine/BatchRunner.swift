import HubClient
import HubWire
import PipelineCore
import RunStore

/// Runs a batch step's items — `send`'s rows, `register`'s devices — with bounded concurrency and pacing,
/// journalling each one so a run that is cut off resumes without doing anything twice.
///
/// An item is one request, or a job of several (`BatchJob`). It is marked `sending` in the journal before
/// its first request is written and its outcome is recorded before it counts as done: a group commit writes the
/// outcomes of the items that finished and the marks of the next ones in one transaction, once half the pool is
/// free or 2 ms passed (`BatchRunner+GroupCommit`); outcomes with nothing to mark go every 64 items or 100 ms;
/// progress every 500 ms. On a resumed run, items the journal shows done are
/// skipped, retriable failures are sent again, and items whose fate is unknown are reported, not resent —
/// unless the run says `--resend-unknown`, or the item is repeatable (every request safe to repeat), which
/// is done again under the id it journalled. Across runs, an item whose idempotency key another run of the
/// pipeline did within the dedupe window is not done again (unless the run says `--again`).
///
/// A failure every further item would share (the key, a right, the hub — the typed `stopsBatch` rule), a
/// journal that fails, an input that becomes unreadable, or a stop signal ends admission; requests in
/// flight finish and are recorded. A dry run sends nothing, records nothing and is not paced.
package struct BatchRunner: Sendable {
    /// Notification ids and request reports kept for the report (the journal keeps them all).
    package static let keptIds = 100
    /// Most notification ids kept as a uniform sample of a batch (for reading delivery outcomes).
    package static let sampledIds = 1000
    /// Requests shown by a dry run; the rest are counted.
    package static let shownRequests = 3
    /// Failed or bad items listed in `BatchOutcome.firstFailures`.
    package static let listedFailures = 5
    /// Outcomes that make a flush due when no group commit is coming to carry them (`flushIfDue`).
    static let flushEvery = 64
    /// Items read ahead of admission, whose keys the journal is asked about together.
    static let lookahead = 64
    /// Seconds past another run's `sending` mark that an item with the same key waits for that run (while it holds
    /// its lock) to settle it: longer than a send takes with the default retries (a 30 s request, three times more,
    /// with backoff), short enough that a stalled run does not hold this one for long. Then it is reported unknown.
    static let inFlightWait: Double = 300

    /// What messages call an item and what it makes: "row" and "notification" for `send`.
    package struct Wording: Sendable {
        /// The item: `row`, `device`.
        package var item: String
        /// What the same idempotency key means: `notification`, `registration`.
        package var thing: String

        /// Creates a wording.
        package init(item: String, thing: String) {
            self.item = item
            self.thing = thing
        }
    }

    let session: HubSession
    let stepIndex: Int
    let stepId: String
    let concurrency: Int
    let governor: RateGovernor
    let control: BatchControl
    let isDryRun: Bool
    /// The number of items, when known before they are read (for progress).
    package var total: Int?
    /// Seconds an accepted idempotency key keeps the same item from being done again; 0 for off.
    let dedupeWindow: Double
    let clock: WallClock
    /// Item reports kept in `BatchOutcome.items` (the first ones, in row order).
    package var keptItems = 0
    /// What messages call items.
    package var wording = Wording(item: "row", thing: "notification")
    /// The longest a free slot waits for others before the next group is marked (`BatchRunner+GroupCommit`).
    package var commitWindow = defaultCommitWindow

    /// Creates a runner for the step at `stepIndex` (1-based).
    package init(
        session: HubSession, stepIndex: Int, stepId: String, concurrency: Int, rate: Double?, control: BatchControl,
        isDryRun: Bool, total: Int? = nil, dedupeWindow: Double = 0, clock: WallClock = .system
    ) {
        self.stepIndex = stepIndex
        self.stepId = stepId
        self.concurrency = max(1, concurrency)
        // A dry run sends nothing, so there is nothing to pace: it runs as fast as the machine allows.
        let shared = isDryRun ? nil : SharedPacing.forStep(stepIndex, rate: rate, session: session, control: control)
        let ceiling: Double? =
            if isDryRun {
                nil
            } else if shared != nil {
                // The store keeps the hub's budget, and a sharded run's step budget; what is left is paced here.
                control.paceScope == nil ? rate : nil
            } else {
                // Without a store, the hub's `rate:` can only be kept by this process.
                [rate, session.hub.rate].compactMap { $0 }.min()
            }
        let governor = RateGovernor(ceiling: ceiling, shared: shared)
        self.governor = governor
        var policy = session.policy
        if !isDryRun { policy.throttle = governor }
        self.session = session.with(policy: policy)
        self.control = control
        self.isDryRun = isDryRun
        self.total = total
        self.dedupeWindow = max(0, dedupeWindow)
        self.clock = clock
    }

    /// Runs every item `next` yields and returns what they came to; when admission stopped early (see the
    /// type's notes), `stop` says why.
    package func collect(_ next: () throws(StepFailure) -> BatchItem?) async -> BatchOutcome {
        // On the HTTP client's own thread when it offers one: the rows, the journal and the requests then
        // meet without thread switches.
        await withTaskExecutorPreference(session.transport.preferredExecutor) {
            await collectHere(next)
        }
    }

    private func collectHere(_ next: () throws(StepFailure) -> BatchItem?) async -> BatchOutcome {
        var state = BatchState(runner: self)
        let session = session
        let governor = governor
        let ledger = isDryRun ? nil : control.ledger.flatMap { $0.isWritable ? $0 : nil }
        let log =
            isDryRun ? RequestLog(redactedAuthorization: session.redactedAuthorization, shown: Self.shownRequests) : nil
        let completions = Completions<(BatchItem, BatchState.Finished)>()
        let stopSignal = control.stop
        let shard = control.shard
        await withDiscardingTaskGroup { group in
            var inFlight = 0
            var exhausted = false
            var sourceDone = false
            var lookahead = ItemLookahead()
            while state.stop == nil, !exhausted, !state.outcome.interrupted {
                // Admit as many items as there is room for, then mark them `sending` in one journal write. Paced
                // items go one at a time: a group would hold its first items back until the last one's slot.
                let room = governor.isPacing ? min(1, concurrency - inFlight) : concurrency - inFlight
                var admittedGroup: [(BatchItem, BatchState.Admitted)] = []
                var marks: [LedgerItem] = []
                while admittedGroup.count < room, state.stop == nil {
                    if Task.isCancelled {
                        state.stop = BatchStop(.cancelled, message: "the run was cancelled")
                        break
                    }
                    if stopSignal.isRequested {
                        state.outcome.interrupted = true
                        break
                    }
                    var item = state.takeDueWaiting()
                    if item == nil, !sourceDone {
                        if lookahead.isEmpty { await state.prefetch(lookahead.fill(next, count: Self.lookahead)) }
                        item = lookahead.take()
                        if item == nil, let failure = lookahead.failure {
                            state.stop = BatchStop(
                                .source, message: failure.message, hint: failure.hint, data: failure.data)
                            break
                        }
                        sourceDone = item == nil
                    }
                    guard let item else {
                        exhausted = state.waiting.isEmpty
                        break
                    }
                    // Another shard's row: not journalled here, only counted, so every shard's counts add up to the input.
                    // Without a shard key, rows are placed by their idempotency key: two rows that are the same notification
                    // land in the same part, where the run's own duplicate check holds one back (parts are separate runs,
                    // and two of them could both pass the check before either marked its row).
                    if let shard, !shard.owns(item.shardKey ?? item.key ?? item.digest) {
                        state.outcome.counts.otherShards += 1
                        continue
                    }
                    guard let admitted = await state.admit(item, ledger: ledger) else {
                        await state.flushIfDue(ledger)
                        continue
                    }
                    // Paced before it is marked `sending`: a run killed while waiting for the rate leaves nothing of
                    // unknown fate. (A job paces each of its requests itself.)
                    if case .request = admitted, !isDryRun { await governor.acquire() }
                    if let ledger, case .job(_, let reusing?) = admitted {
                        // An id an earlier attempt obtained is journalled with the new attempt, so it is never missing
                        // from the journal while the item is `sending` again.
                        do throws(LedgerError) {
                            try await ledger.markSending(state.ledgerItem(item), creating: reusing)
                        } catch {
                            state.journalFailed(error)
                            break
                        }
                    } else if ledger != nil {
                        marks.append(state.markedItem(item))
                    }
                    admittedGroup.append((item, admitted))
                }
                if let ledger, !marks.isEmpty {
                    admittedGroup = await commit(admittedGroup, marks: marks, ledger: ledger, state: &state)
                } else {
                    // No group to commit: what finished is recorded every 64 items or 100 ms, as ever.
                    await state.flushIfDue(ledger)
                }
                for (item, admitted) in admittedGroup {
                    switch admitted {
                    case .request(let request):
                        log?.record(request, key: RequestLog.Key(row: item.row, request: 1))
                        state.outcome.requests += 1
                        group.addTask { completions.push((item, .attempt(await session.attempt(request)))) }
                    case .job(let job, let reusing):
                        let requests = BatchRequests(
                            session: session, governor: governor, log: log, ledger: ledger,
                            key: LedgerKey(step: stepIndex, row: item.row))
                        group.addTask {
                            completions.push((item, .job(await job.perform(requests, reusing: reusing), requests)))
                        }
                    }
                    inFlight += 1
                }
                // Every row is read and only items waiting for another run are left: take what finishes, or sleep.
                let idle = admittedGroup.isEmpty && sourceDone && !exhausted && state.stop == nil
                if idle, inFlight == 0 {
                    await state.flushIfDue(ledger)
                    await state.sleepUntilWaitingDue()
                    continue
                }
                guard inFlight >= concurrency || idle else {
                    // Room is left (a paced run admits one at a time): what finished meanwhile is recorded now, not once
                    // the pool is full, so a run cut off leaves only what was in flight of unknown fate.
                    for (done, finished) in completions.takeReady() {
                        inFlight -= 1
                        await state.finish(done, finished, governor: governor)
                    }
                    await state.flushIfDue(ledger)
                    continue
                }
                var done = await completions.takeAll()
                if ledger != nil, !governor.isPacing, !sourceDone, state.stop == nil {
                    await topUp(&done, from: completions, inFlight: inFlight)
                }
                for (item, finished) in done {
                    inFlight -= 1
                    await state.finish(item, finished, governor: governor)
                }
                // Rows are left to admit and nothing stops admission: the next group's commit records these outcomes
                // with its marks. Otherwise they are recorded as ever, before the requests still in flight end.
                let committingNext =
                    ledger != nil && !governor.isPacing && !sourceDone && state.stop == nil && !stopSignal.isRequested
                await state.flushIfDue(ledger, committingNext: committingNext)
            }
            // Requests already written finish and are recorded, whatever stopped admission; what finished before them is
            // recorded now, not after the slowest of them.
            if !state.pending.isEmpty { await state.flush(ledger) }
            while inFlight > 0 {
                for (done, finished) in await completions.takeAll() {
                    inFlight -= 1
                    await state.finish(done, finished, governor: governor)
                }
                await state.flushIfDue(ledger)
            }
            await state.flush(ledger, final: true)
        }
        if let log {
            let (lines, total) = log.snapshot
            state.outcome.dryRunLines = lines
            state.outcome.requests = total
        }
        control.progress?.report(state.progress(), final: true)
        return state.finishedOutcome()
    }

    /// Runs every item `next` yields. Throws the stop (the journal failed, the hub refused the key, token or
    /// hub, the input became unreadable) when admission stopped early; items finished before it are journalled.
    package func run(_ next: () throws(StepFailure) -> BatchItem?) async throws(StepFailure) -> BatchOutcome {
        let outcome = await collect(next)
        if let stop = outcome.stop { throw stop.failure }
        return outcome
    }
}
