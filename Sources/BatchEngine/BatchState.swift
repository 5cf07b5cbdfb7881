import Foundation
import HubWire
import PipelineCore

/// The dispatcher's bookkeeping for one `BatchRunner.run`: what to send, what came back, what is
/// waiting to be journalled.
struct BatchState {
    let runner: BatchRunner
    var outcome = BatchOutcome()
    /// An outcome waiting to be journalled (or, for one the journal has already, only to be counted).
    private struct Pending {
        var outcome: LedgerOutcome
        var journal = true
    }

    /// Outcomes not yet journalled; an item counts as done only once its outcome is.
    private var pending: [Pending] = []
    private var groupOrder: [String] = []
    private var groups: [String: BatchOutcome.FailureGroup] = [:]
    var stopFailure: StepFailure?
    private let started = ContinuousClock.now
    private var lastReport = ContinuousClock.now
    private var lastFlush = ContinuousClock.now

    init(runner: BatchRunner) {
        self.runner = runner
    }

    func ledgerItem(_ item: BatchItem) -> LedgerItem {
        LedgerItem(key: LedgerKey(step: runner.stepIndex, row: item.row), stepId: runner.stepId, origin: item.origin, digest: item.digest,
                   idempotencyKey: item.key, target: item.target)
    }

    /// The request to send for `item`, or nil when it is not sent: malformed, settled by an earlier
    /// attempt of this run (accepted, failed for good, or of unknown fate), or already sent (its
    /// idempotency key accepted by another run within the window, or by an earlier row of this run).
    mutating func admit(_ item: BatchItem, ledger: (any ItemLedger)?) async throws(StepFailure) -> HubRequest? {
        let request: HubRequest
        switch item.work {
        case .invalid(let reason):
            settle(item, .bad, error: reason)
            return nil
        case .request(let built):
            request = built
        }
        if runner.control.isResume, let ledger {
            let entry: LedgerEntry?
            do { entry = try await ledger.entry(LedgerKey(step: runner.stepIndex, row: item.row)) } catch { throw journalFailure(error) }
            if let entry {
                if entry.digest != item.digest {
                    // The run's identity covers its inputs, so this means the journal and the file disagree: never guess.
                    settle(item, .failed, error: "\(item.origin): the row differs from the one an earlier attempt journalled; not sent")
                    return nil
                }
                switch entry.state {
                case .accepted:
                    outcome.counts.skipped += 1
                    if let id = entry.notificationId, outcome.notificationIds.count < BatchRunner.keptIds { outcome.notificationIds.append(id) }
                    return nil
                case .duplicate:
                    settle(item, .duplicate, error: entry.error ?? "already sent", journal: false)
                    return nil
                case .bad:
                    settle(item, .bad, error: entry.error ?? "malformed", journal: false)
                    return nil
                case .unknown where entry.attempts == 0:
                    // Never sent by this run: it was held back because another run left the same notification
                    // of unknown fate. Ask again, since that run's item may have been settled meanwhile.
                    break
                case .sending, .unknown:
                    if runner.control.resendUnknown { return request }
                    let reason = entry.error ?? "an earlier attempt stopped while this was being sent; the hub may have accepted it"
                    settle(item, .unknown, error: reason)
                    return nil
                case .failed where !entry.retriable:
                    settle(item, .failed, error: entry.error ?? "failed in an earlier attempt")
                    return nil
                case .failed, .pending:
                    break
                }
            }
        }
        return try await deduplicated(item, request)
    }

    /// `request`, unless the same notification (idempotency key) was sent already within the window.
    private mutating func deduplicated(_ item: BatchItem, _ request: HubRequest) async throws(StepFailure) -> HubRequest? {
        guard runner.dedupeWindow > 0, let key = item.key, let lookup = runner.control.ledger else { return request }
        let since = runner.clock.now().timeIntervalSince1970 - runner.dedupeWindow
        let prior: PriorSend?
        do { prior = try await lookup.priorSend(key: key, since: since, excluding: LedgerKey(step: runner.stepIndex, row: item.row)) } catch {
            throw journalFailure(error)
        }
        guard let prior else { return request }
        if prior.sameRun {
            // Two rows of one run that make the same notification: the first one sends it.
            settle(item, .duplicate, error: "already sent by this run (the same notification as \(prior.origin))",
                   notificationId: prior.notificationId)
            return nil
        }
        let when = RunReport.timestamp(Date(timeIntervalSince1970: prior.at))
        switch prior.state {
        case .accepted where runner.control.again:
            // `--again` overrides what was sent, not what is of unknown fate (that takes --resend-unknown).
            outcome.resent += 1
            return request
        case .accepted:
            settle(item, .duplicate, error: "already sent by run \(prior.runId) (\(prior.origin) at \(when))", notificationId: prior.notificationId)
            return nil
        default:
            if runner.control.resendUnknown { return request }
            settle(item, .unknown, error: "left of unknown fate by run \(prior.runId) (\(prior.origin) at \(when)); "
                   + "`pushline runs resolve \(prior.runId)` settles it")
            return nil
        }
    }

    /// Records the outcome of a request that came back (or did not).
    mutating func finish(_ item: BatchItem, _ attempt: HubAttempt, governor: RateGovernor) async {
        let summary = if case .request(let request) = item.work { request.summary } else { item.origin }
        switch attempt {
        case .accepted(let result):
            await governor.finished(throttled: result.throttles > 0)
            // A dry run makes no attempt (0): no retries, not minus one.
            outcome.retries += max(0, result.attempts - 1)
            let id = result.response.header("Location").flatMap(NotificationLocation.notificationId(fromLocation:))
            if let id, outcome.notificationIds.count < BatchRunner.keptIds { outcome.notificationIds.append(id) }
            pending.append(Pending(outcome: LedgerOutcome(item: ledgerItem(item), state: .accepted, notificationId: id)))
            keepReport(summary, status: result.response.status, trackingId: result.trackingId, attempts: result.attempts,
                       elapsedMs: result.elapsedMs, notificationId: id, outcome: runner.isDryRun ? "planned" : "accepted", reason: nil)
        case .failed(let reason, let hint, let retriable, let stopsRun, let status, let trackingId, let attempts):
            await governor.finished(throttled: status == 429)
            outcome.retries += max(0, attempts - 1)
            settle(item, .failed, error: reason, retriable: retriable, example: "\(item.origin) [TrackingId: \(trackingId)]", hint: hint)
            keepReport(summary, status: status, trackingId: trackingId, attempts: attempts, elapsedMs: nil, notificationId: nil,
                       outcome: "failed", reason: reason)
            if stopsRun, stopFailure == nil {
                let more = runner.total == 1 ? "" : "; stopped starting new items"
                stopFailure = StepFailure("hub '\(runner.session.hub.name)': \(summary): \(reason)\(more)",
                                          hint: runner.total == 1 ? hint : hint.map { $0 + "; then run again to resume" } ?? "run again to resume",
                                          data: outcome.requestReports.last ?? .object([]))
            }
        case .unknown(let reason, let trackingId, let attempts):
            await governor.finished(throttled: false)
            outcome.retries += max(0, attempts - 1)
            settle(item, .unknown, error: reason, example: "\(item.origin) [TrackingId: \(trackingId)]")
            keepReport(summary, status: nil, trackingId: trackingId, attempts: attempts, elapsedMs: nil, notificationId: nil,
                       outcome: "unknown", reason: reason)
        }
    }

    private mutating func keepReport(_ summary: String, status: Int?, trackingId: String, attempts: Int, elapsedMs: Int?,
                                     notificationId: String?, outcome state: String, reason: String?) {
        guard outcome.requestReports.count < BatchRunner.keptIds else { return }
        outcome.requestReports.append(.object([
            ReportField("request", .string(summary)), ReportField("status", status.map(ReportValue.int) ?? .null),
            ReportField("trackingId", .string(trackingId)), ReportField("attempts", .int(attempts)),
            ReportField("elapsedMs", elapsedMs.map(ReportValue.int) ?? .null),
            ReportField("notificationId", notificationId.map(ReportValue.string) ?? .null),
            ReportField("outcome", .string(state)), ReportField("reason", reason.map(ReportValue.string) ?? .null),
        ]))
    }

    /// An item not accepted: grouped by reason for the report, queued for the journal (unless it is
    /// there already, as a resumed duplicate or bad row is).
    private mutating func settle(_ item: BatchItem, _ state: ItemState, error: String, retriable: Bool = false, example: String? = nil,
                                 hint: String? = nil, notificationId: String? = nil, journal: Bool = true) {
        // Reasons about a row start with its `file:line: `; the journal keeps the origin apart, so that
        // `pushline runs show` groups rows by what went wrong rather than one group per row.
        let reason = error.hasPrefix(item.origin + ": ") ? String(error.dropFirst(item.origin.count + 2)) : error
        pending.append(Pending(outcome: LedgerOutcome(item: ledgerItem(item), state: state, notificationId: notificationId, error: reason,
                                                      retriable: retriable), journal: journal))
        let group = FailureReason.group(reason)
        let key = "\(state.rawValue)\u{0}\(group)"
        if groups[key] == nil {
            groupOrder.append(key)
            groups[key] = BatchOutcome.FailureGroup(state: state, reason: group, count: 0, examples: [], hint: hint)
        }
        groups[key]?.count += 1
        if let count = groups[key]?.examples.count, count < 3 {
            // A grouped reason drops the row's detail; the example keeps it.
            groups[key]?.examples.append(example ?? (group == reason ? item.origin : "\(item.origin): \(reason)"))
        }
        // A run of wildly varied reasons must not grow the report without bound.
        if groupOrder.count > 200, let last = groupOrder.last {
            groupOrder.removeLast()
            groups[last] = nil
        }
    }

    mutating func show(_ request: HubRequest) {
        guard outcome.requests < BatchRunner.shownRequests else { return }
        outcome.dryRunLines += request.dryRunLines(redactedAuthorization: runner.session.redactedAuthorization)
    }

    mutating func flushIfDue(_ ledger: (any ItemLedger)?) async throws(StepFailure) {
        let now = ContinuousClock.now
        if pending.count >= BatchRunner.flushEvery || now - lastFlush >= .milliseconds(100) { try await flush(ledger) }
        if now - lastReport >= .milliseconds(500) {
            lastReport = now
            runner.control.progress?.report(progress(), final: false)
        }
    }

    /// Journals pending outcomes, then counts them.
    mutating func flush(_ ledger: (any ItemLedger)?) async throws(StepFailure) {
        lastFlush = ContinuousClock.now
        guard !pending.isEmpty else { return }
        if let ledger {
            let records = pending.filter(\.journal).map(\.outcome)
            if !records.isEmpty {
                do { try await ledger.record(records) } catch { throw journalFailure(error) }
            }
        }
        for recorded in pending {
            switch recorded.outcome.state {
            case .accepted where runner.isDryRun: outcome.counts.planned += 1
            case .accepted: outcome.counts.accepted += 1
            case .unknown, .sending: outcome.counts.unknown += 1
            case .failed, .pending: outcome.counts.failed += 1
            case .duplicate: outcome.counts.duplicates += 1
            case .bad: outcome.counts.bad += 1
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    func journalFailure(_ error: LedgerError) -> StepFailure { error.stepFailure }

    func progress() -> StepProgress {
        let elapsed = ContinuousClock.now - started
        return StepProgress(stepIndex: runner.stepIndex, stepId: runner.stepId, counts: outcome.counts, total: runner.total,
                            elapsed: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                            dryRun: runner.isDryRun)
    }

    func finishedOutcome() -> BatchOutcome {
        var result = outcome
        result.failures = groupOrder.compactMap { groups[$0] }.sorted { $0.count > $1.count }
        return result
    }
}
