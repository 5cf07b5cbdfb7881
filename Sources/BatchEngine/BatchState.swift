import Foundation
import HubClient
import HubWire
import PipelineCore
import RunStore

/// The runner's bookkeeping for one `BatchRunner.collect`: what the journal says of each item, what came
/// back, what is waiting to be journalled, and the reports kept.
///
/// Memory stays bounded whatever the number of items: the first `keptIds` ids and request reports, the
/// first `keptItems` item reports, the first few failures and at most 200 failure groups are kept;
/// everything else is counted (and is in the journal).
struct BatchState {
    let runner: BatchRunner
    /// True when items are journalled (not a dry run, a writable ledger): asked for every row a re-run skips, so worked
    /// out once rather than through the runner's control each time.
    let journals: Bool
    var outcome = BatchOutcome()
    /// Why admission stopped, if it did.
    var stop: BatchStop?

    /// What an admitted item does.
    enum Admitted {
        case request(HubRequest)
        case job(any BatchJob, reusing: String?)
    }

    /// What a finished item came to.
    enum Finished: Sendable {
        case attempt(HubAttempt)
        case job(BatchJobResult, BatchRequests)
    }

    /// An item's outcome waiting to be journalled (unless the journal has it already) and counted.
    struct Pending {
        var outcome: LedgerOutcome
        var journal = true
        /// Done by an earlier attempt of this run: counted as skipped.
        var skipped = false
        var report: BatchItemReport
    }

    var pending: [Pending] = []
    /// Items waiting for another run's send of the same notification (`BatchState+Waiting`).
    var waiting: [WaitingItem] = []
    /// Rows skipped as sent by another run, not journalled yet (`BatchState+Skips`): the range still growing, those
    /// closed, the open range as last written, and when.
    var openSkip: SkipRange?
    var closedSkips: [SkipRange] = []
    var writtenSkip: SkipRange?
    var lastSkipWrite = ContinuousClock.now
    /// The group of the rows last skipped (`already sent by run X`) and its key, for the run that sent them.
    var skipGroup: (runId: String, reason: String, key: String)?
    /// Prior sends looked up ahead for the rows about to be admitted, by row (`BatchState+Prefetch`).
    var prefetched: [Int: PriorSend?] = [:]
    /// Whether other runs were live when last asked, and when.
    var liveRuns: [String: (live: Bool, at: ContinuousClock.Instant)] = [:]
    private var groupOrder: [String] = []
    private var groups: [String: BatchOutcome.FailureGroup] = [:]
    private var kept: [BatchItemReport?] = []
    private var failures: [BatchItemReport] = []
    private let started = ContinuousClock.now
    var lastReport = ContinuousClock.now
    var lastFlush = ContinuousClock.now

    init(runner: BatchRunner) {
        self.runner = runner
        journals = !runner.isDryRun && runner.control.ledger?.isWritable == true
    }

    func ledgerItem(_ item: BatchItem) -> LedgerItem {
        LedgerItem(
            key: LedgerKey(step: runner.stepIndex, row: item.row), stepId: runner.stepId, origin: item.origin,
            digest: item.digest,
            idempotencyKey: item.key, target: item.target)
    }

    /// Records what a finished item came to.
    mutating func finish(_ item: BatchItem, _ finished: Finished, governor: RateGovernor) async {
        switch finished {
        case .attempt(let attempt):
            await finish(item, attempt, governor: governor)
        case .job(let result, let requests):
            let (made, retries, reports) = requests.summary
            outcome.requests += made
            outcome.retries += retries
            for report in reports where outcome.requestReports.count < BatchRunner.keptIds {
                outcome.requestReports.append(report)
            }
            switch result.outcome {
            case .done(let word):
                outcome.noteNotificationId(result.id)
                pending.append(
                    Pending(
                        outcome: LedgerOutcome(item: ledgerItem(item), state: .accepted, notificationId: result.id),
                        report: BatchItemReport(row: item.row, label: item.shownLabel, outcome: word, id: result.id)))
            case .failed(let reason, let hint, let retriable, let stopping):
                settle(item, .failed, error: reason, retriable: retriable, hint: hint, notificationId: result.id)
                if let stopping, stopping.cause == .journal {
                    journalFailed(message: stopping.message, hint: stopping.hint)
                } else if let stopping, stop == nil {
                    stop = stopping
                }
            }
        }
    }

    /// Records the outcome of a single request that came back (or did not).
    private mutating func finish(_ item: BatchItem, _ attempt: HubAttempt, governor: RateGovernor) async {
        let summary = if case .request(let request) = item.work { request.summary } else { item.origin }
        switch attempt {
        case .accepted(let result):
            await governor.finished(throttled: result.throttles > 0)
            // A dry run makes no attempt (0): no retries, not minus one.
            outcome.retries += max(0, result.attempts - 1)
            let id = result.response.header("Location").flatMap(NotificationLocation.notificationId(fromLocation:))
            // A dry run sends nothing, so it has no notification to name.
            if !runner.isDryRun {
                outcome.noteNotificationId(id)
                outcome.noteTrackingId(result.trackingId)
            }
            let word = runner.isDryRun ? "planned" : "accepted"
            pending.append(
                Pending(
                    outcome: LedgerOutcome(item: ledgerItem(item), state: .accepted, notificationId: id),
                    report: BatchItemReport(row: item.row, label: item.shownLabel, outcome: word, id: id)))
            keepReport(
                Self.requestReport(
                    summary, status: result.response.status, trackingId: result.trackingId, attempts: result.attempts,
                    elapsedMs: result.elapsedMs, notificationId: id, outcome: word, reason: nil))
        case .failed(let reason, let hint, let retriable, let stopsRun, let status, let trackingId, let attempts):
            await governor.finished(throttled: status == 429)
            outcome.retries += max(0, attempts - 1)
            settle(
                item, .failed, error: reason, retriable: retriable,
                example: "\(item.origin) [TrackingId: \(trackingId)]", hint: hint)
            keepReport(
                Self.requestReport(
                    summary, status: status, trackingId: trackingId, attempts: attempts, elapsedMs: nil,
                    notificationId: nil, outcome: "failed", reason: reason))
            if stopsRun, stop == nil {
                let more = runner.total == 1 ? "" : "; stopped starting new items"
                stop = BatchStop(
                    .hub, message: "hub '\(runner.session.hub.name)': \(summary): \(reason)\(more)",
                    hint: runner.total == 1
                        ? hint : hint.map { $0 + "; then run again to resume" } ?? "run again to resume",
                    data: outcome.requestReports.last ?? .object([]))
                stop?.unreachable = status == nil
            }
        case .unknown(let reason, let trackingId, let attempts):
            await governor.finished(throttled: false)
            outcome.retries += max(0, attempts - 1)
            settle(item, .unknown, error: reason, example: "\(item.origin) [TrackingId: \(trackingId)]")
            keepReport(
                Self.requestReport(
                    summary, status: nil, trackingId: trackingId, attempts: attempts, elapsedMs: nil,
                    notificationId: nil, outcome: "unknown", reason: reason))
        }
    }

    /// One request's report: request, status, TrackingId, attempts, timing, notification id, outcome, reason.
    static func requestReport(
        _ summary: String, status: Int?, trackingId: String, attempts: Int, elapsedMs: Int?,
        notificationId: String?, outcome state: String, reason: String?
    ) -> ReportValue {
        .object([
            ReportField("request", .string(summary)), ReportField("status", status.map(ReportValue.int) ?? .null),
            ReportField("trackingId", .string(trackingId)), ReportField("attempts", .int(attempts)),
            ReportField("elapsedMs", elapsedMs.map(ReportValue.int) ?? .null),
            ReportField("notificationId", notificationId.map(ReportValue.string) ?? .null),
            ReportField("outcome", .string(state)), ReportField("reason", reason.map(ReportValue.string) ?? .null),
        ])
    }

    private mutating func keepReport(_ report: ReportValue) {
        if outcome.requestReports.count < BatchRunner.keptIds { outcome.requestReports.append(report) }
    }

    /// An item not accepted: grouped by reason for the report, queued for the journal (unless it is there
    /// already, as a resumed duplicate or bad row is).
    mutating func settle(
        _ item: BatchItem, _ state: ItemState, error: String, retriable: Bool = false, example: String? = nil,
        hint: String? = nil, notificationId: String? = nil, journal: Bool = true
    ) {
        // Reasons about a row start with its `file:line: `; the journal keeps the origin apart, so that
        // `pushline runs show` groups rows by what went wrong rather than one group per row.
        let reason = error.hasPrefix(item.origin + ": ") ? String(error.dropFirst(item.origin.count + 2)) : error
        let report = BatchItemReport(
            row: item.row, label: item.shownLabel, outcome: state == .pending ? "failed" : state.rawValue,
            id: notificationId, reason: error)
        pending.append(
            Pending(
                outcome: LedgerOutcome(
                    item: ledgerItem(item), state: state, notificationId: notificationId, error: reason,
                    retriable: retriable), journal: journal, report: report))
        let group = FailureReason.group(reason)
        // A grouped reason drops the row's detail; the example keeps it.
        count(state, in: group, hint: hint) { example ?? (group == reason ? item.origin : "\(item.origin): \(reason)") }
    }

    /// Counts an item in the report's group of `state` and `group` (made with `hint` when new), keeping `example()` as
    /// one of its first three examples. `key` is the group's `groupKey`, when the caller keeps it.
    mutating func count(_ state: ItemState, in group: String, key: String? = nil, hint: String?, example: () -> String)
    {
        let key = key ?? Self.groupKey(state, group)
        // One lookup: a re-run counts a million skipped rows here.
        if let index = groups.index(forKey: key) {
            groups.values[index].count += 1
            if groups.values[index].examples.count < 3 { groups.values[index].examples.append(example()) }
            return
        }
        groupOrder.append(key)
        groups[key] = BatchOutcome.FailureGroup(
            state: state, reason: group, count: 1, examples: [example()], hint: hint)
        // A run of wildly varied reasons must not grow the report without bound.
        if groupOrder.count > 200, let last = groupOrder.last {
            groupOrder.removeLast()
            groups[last] = nil
        }
    }

    /// Where `count` keeps the group of `state` and `group`.
    static func groupKey(_ state: ItemState, _ group: String) -> String {
        "\(state.rawValue)\u{0}\(group)"
    }

    /// Keeps the first item reports, and the first failures, in row order whatever order they finished in.
    mutating func keep(_ report: BatchItemReport) {
        guard runner.keptItems > 0 else { return }
        let index = report.row - 1
        if index >= 0, index < runner.keptItems {
            if kept.count <= index { kept += Array(repeating: nil, count: index + 1 - kept.count) }
            kept[index] = report
        }
        guard report.isFailure else { return }
        if failures.count < BatchRunner.listedFailures || report.row < failures[failures.count - 1].row {
            failures.append(report)
            failures.sort { $0.row < $1.row }
            if failures.count > BatchRunner.listedFailures { failures.removeLast() }
        }
    }

    func progress() -> StepProgress {
        let elapsed = ContinuousClock.now - started
        return StepProgress(
            stepIndex: runner.stepIndex, stepId: runner.stepId, counts: outcome.counts, total: runner.total,
            elapsed: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            dryRun: runner.isDryRun)
    }

    func finishedOutcome() -> BatchOutcome {
        var result = outcome
        result.failures = groupOrder.compactMap { groups[$0] }.sorted { $0.count > $1.count }
        result.stop = stop
        result.items = kept.compactMap { $0 }
        result.firstFailures = failures
        return result
    }
}
