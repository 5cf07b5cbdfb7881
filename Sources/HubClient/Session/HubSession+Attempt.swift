import Foundation
import HubWire
import PipelineCore

/// What one request came to, classified for a batch: accepted, failed (and whether trying again may
/// help), or unknown (it may have been accepted).
package enum HubAttempt: Sendable {
    /// 2xx.
    case accepted(TransportResult)
    /// A definite failure; `stopsRun` is true when every later request would fail the same way (the
    /// key, the token, the hub), so a batch stops starting items.
    case failed(
        reason: String, hint: String?, retriable: Bool, stopsRun: Bool, status: Int?, trackingId: String, attempts: Int)
    /// No usable answer after the request was written, or 500/504 on a send.
    case unknown(reason: String, trackingId: String, attempts: Int)
}

extension HubSession {
    /// Sends `request` and classifies what came back, without throwing: batches count outcomes
    /// instead of stopping at the first failure.
    package func attempt(_ request: HubRequest) async -> HubAttempt {
        switch await exchange(request) {
        case .answered(let result):
            return .accepted(result)
        case .noAnswer(let error):
            // The item names the request already; the bare reason lets equal failures group in reports.
            let reason =
                error.message.hasPrefix(request.summary + ": ")
                ? String(error.message.dropFirst(request.summary.count + 2)) : error.message
            if error.kind == .ambiguous {
                return .unknown(reason: reason, trackingId: error.trackingId, attempts: error.attempts)
            }
            if error.kind == .unsendable {
                return .failed(
                    reason: reason, hint: Self.unsendableHint, retriable: false, stopsRun: false, status: nil,
                    trackingId: error.trackingId, attempts: 0)
            }
            // After the transport's own retries the hub is still out of reach: the next request would not fare better.
            return .failed(
                reason: reason, hint: "check the hub's endpoint and the network",
                retriable: true, stopsRun: error.stopsBatch, status: nil, trackingId: error.trackingId,
                attempts: error.attempts)
        case .refused(let failure, let result):
            return .failed(
                reason: failure.messageWithDetail, hint: failure.hint, retriable: failure.isRetriable,
                stopsRun: failure.stopsBatch, status: result.response.status,
                trackingId: failure.trackingId ?? result.trackingId,
                attempts: result.attempts)
        }
    }
}
