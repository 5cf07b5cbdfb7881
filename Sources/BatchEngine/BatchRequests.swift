import HubClient
import HubWire
import PipelineCore
import RunStore
import Synchronization

/// What a `BatchJob` makes its requests through: paced by the step's rate, shown by a dry run in item order,
/// counted and reported like a single-request item's, and able to journal an id before it is used.
package final class BatchRequests: Sendable {
    private struct Tally {
        var made = 0
        var retries = 0
        var reports: [ReportValue] = []
    }

    /// The hub session the job talks to.
    package let session: HubSession
    private let governor: RateGovernor
    private let log: RequestLog?
    private let ledger: (any ItemLedger)?
    private let key: LedgerKey
    private let tally = Mutex(Tally())

    init(session: HubSession, governor: RateGovernor, log: RequestLog?, ledger: (any ItemLedger)?, key: LedgerKey) {
        self.session = session
        self.governor = governor
        self.log = log
        self.ledger = ledger
        self.key = key
    }

    /// The hub's endpoint, for building requests.
    package var endpoint: HubEndpoint { session.endpoint }

    /// Sends `request`; a 2xx, or a status in `allowed`, is answered.
    package func send(_ request: HubRequest, allowing allowed: Set<Int> = []) async -> HubExchange {
        let number = tally.withLock { tally in
            tally.made += 1
            return tally.made
        }
        log?.record(request, key: RequestLog.Key(row: key.row, request: number))
        // A dry run sends nothing, so there is nothing to pace.
        if log == nil { await governor.acquire() }
        let exchange = await session.exchange(request, allowing: allowed)
        switch exchange {
        case .answered(let result):
            await governor.finished(throttled: result.throttles > 0)
            keep(request, result: result, outcome: "answered", reason: nil)
        case .refused(let failure, let result):
            await governor.finished(throttled: result.throttles > 0 || result.response.status == 429)
            keep(request, result: result, outcome: "failed", reason: failure.message)
        case .noAnswer(let error):
            await governor.finished(throttled: false)
            tally.withLock { $0.retries += max(0, error.attempts - 1) }
            keepReport(
                BatchState.requestReport(
                    request.summary, status: nil, trackingId: error.trackingId, attempts: error.attempts,
                    elapsedMs: nil, notificationId: nil, outcome: "failed", reason: error.message))
        }
        return exchange
    }

    /// Sends `request` and reads the answer as a job step: a 2xx (or a status in `allowed`) is the response;
    /// anything else is a failure naming the request, retriable when trying again may help, and carrying the
    /// batch's stop when every further item would meet it too (the shared `stopsBatch` rule).
    package func expect(_ request: HubRequest, allowing allowed: Set<Int> = []) async -> Result<
        HubResponse, BatchJobFailure
    > {
        let hub = session.hub.name
        switch await send(request, allowing: allowed) {
        case .answered(let result):
            return .success(result.response)
        case .noAnswer(let error):
            var stop =
                error.stopsBatch
                ? BatchStop(
                    .hub, message: "hub '\(hub)': \(error.message)", hint: "check the hub's endpoint and the network")
                : nil
            stop?.unreachable = true
            return .failure(
                BatchJobFailure(
                    reason: "\(request.summary): \(error.message)", stop: stop, retriable: error.kind != .unsendable))
        case .refused(let failure, _):
            let stop =
                failure.stopsBatch
                ? BatchStop(.hub, message: "hub '\(hub)': \(failure.message)", hint: failure.hint) : nil
            return .failure(
                BatchJobFailure(
                    reason: "\(request.summary): \(failure.message)", stop: stop, retriable: failure.isRetriable))
        }
    }

    /// `journal(id:)` as a job step: a journal that cannot be written stops the batch.
    package func keep(id: String) async -> BatchJobFailure? {
        do throws(LedgerError) { try await journal(id: id) } catch {
            let failure = error.stepFailure
            return BatchJobFailure(
                reason: failure.message, stop: BatchStop(.journal, message: failure.message, hint: failure.hint),
                retriable: true)
        }
        return nil
    }

    /// Journals `id` as what the item is creating, before it is used, so a resumed run upserts that resource
    /// instead of creating a second. Nothing is written in a dry run or a run without a journal.
    package func journal(id: String) async throws(LedgerError) {
        guard let ledger else { return }
        try await ledger.assignId(id, to: key)
    }

    private func keep(_ request: HubRequest, result: TransportResult, outcome: String, reason: String?) {
        tally.withLock { $0.retries += max(0, result.attempts - 1) }
        keepReport(
            BatchState.requestReport(
                request.summary, status: result.response.status, trackingId: result.trackingId,
                attempts: result.attempts, elapsedMs: result.elapsedMs, notificationId: nil,
                outcome: log == nil ? outcome : "planned", reason: reason))
    }

    private func keepReport(_ report: ReportValue) {
        tally.withLock { tally in if tally.reports.count < BatchRunner.keptIds { tally.reports.append(report) } }
    }

    /// Requests made, retries, and the first requests' reports.
    var summary: (made: Int, retries: Int, reports: [ReportValue]) {
        tally.withLock { ($0.made, $0.retries, $0.reports) }
    }
}
