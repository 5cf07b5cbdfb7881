import HubWire
import PipelineCore

/// Sends a batch step's items with bounded concurrency and pacing, journalling each one so a run
/// that is cut off resumes without sending anything twice.
///
/// An item is marked `sending` in the journal before its request is written and its outcome is
/// recorded before it counts as done. On a resumed run, items the journal shows accepted are
/// skipped, retriable failures are sent again, and items whose fate is unknown are reported, not
/// resent (unless the run says `--resend-unknown`). Across runs, an item whose idempotency key another
/// run of the pipeline had accepted within the dedupe window is not sent (unless the run says
/// `--again`). A stop signal ends admission; requests in flight finish and are recorded. A dry run
/// sends nothing, records nothing and is not paced.
public struct BatchRunner: Sendable {
    /// Notification ids kept for the report (the journal keeps them all).
    public static let keptIds = 100
    /// Requests shown by a dry run; the rest are counted.
    public static let shownRequests = 3
    /// Outcomes recorded per journal transaction at most.
    static let flushEvery = 64

    let session: HubSession
    let stepIndex: Int
    let stepId: String
    let concurrency: Int
    let governor: RateGovernor
    let control: BatchControl
    let isDryRun: Bool
    let total: Int?
    /// Seconds an accepted idempotency key keeps the same notification from being sent again; 0 for off.
    let dedupeWindow: Double
    let clock: WallClock

    /// Creates a runner for the step at `stepIndex` (1-based).
    public init(session: HubSession, stepIndex: Int, stepId: String, concurrency: Int, rate: Double?, control: BatchControl,
                isDryRun: Bool, total: Int? = nil, dedupeWindow: Double = 0, clock: WallClock = .system) {
        self.session = session
        self.stepIndex = stepIndex
        self.stepId = stepId
        self.concurrency = max(1, concurrency)
        // A dry run sends nothing, so there is nothing to pace: it runs as fast as the machine allows.
        governor = RateGovernor(ceiling: isDryRun ? nil : rate)
        self.control = control
        self.isDryRun = isDryRun
        self.total = total
        self.dedupeWindow = max(0, dedupeWindow)
        self.clock = clock
    }

    /// Runs every item `next` yields. Throws when the journal fails or the hub refuses the key, token
    /// or hub (then no later item could succeed); items finished before that are journalled.
    public func run(_ next: () throws(StepFailure) -> BatchItem?) async throws(StepFailure) -> BatchOutcome {
        var state = BatchState(runner: self)
        let session = session
        let ledger = isDryRun ? nil : control.ledger.flatMap { $0.isWritable ? $0 : nil }
        let stopping: StepFailure? = await withTaskGroup(of: (BatchItem, HubAttempt).self) { group -> StepFailure? in
            var inFlight = 0
            do throws(StepFailure) {
                while state.stopFailure == nil {
                    if control.stop.isRequested {
                        state.outcome.interrupted = true
                        break
                    }
                    guard let item = try next() else { break }
                    guard let request = try await state.admit(item, ledger: ledger) else { continue }
                    if !isDryRun { await governor.acquire() }
                    if let ledger {
                        do throws(LedgerError) { try await ledger.markSending([state.ledgerItem(item)]) } catch { throw state.journalFailure(error) }
                    }
                    if isDryRun { state.show(request) }
                    state.outcome.requests += 1
                    group.addTask { (item, await session.attempt(request)) }
                    inFlight += 1
                    while inFlight >= concurrency, let (done, attempt) = await group.next() {
                        inFlight -= 1
                        await state.finish(done, attempt, governor: governor)
                        try await state.flushIfDue(ledger)
                    }
                }
            } catch {
                state.stopFailure = state.stopFailure ?? error
            }
            // Requests already written finish and are recorded, whatever stopped admission.
            for await (done, attempt) in group {
                await state.finish(done, attempt, governor: governor)
            }
            do throws(StepFailure) { try await state.flush(ledger) } catch { state.stopFailure = state.stopFailure ?? error }
            return state.stopFailure
        }
        control.progress?.report(state.progress(), final: true)
        if let stopping { throw stopping }
        return state.finishedOutcome()
    }
}
