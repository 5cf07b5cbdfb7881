import Foundation
import HubWire
import PipelineCore

/// What one request came to, unclassified for a batch: the answer the caller accepts, the hub's refusal, or
/// no usable answer at all. A batch job that makes several requests reads these and decides; `attempt`
/// classifies one for a single-request item.
package enum HubExchange: Sendable {
    /// 2xx, or a status the caller allowed (a 410 Gone that means "get a new registration id").
    case answered(TransportResult)
    /// Any other status, classified.
    case refused(HubFailure, TransportResult)
    /// No usable answer after the transport's retries.
    case noAnswer(TransportError)
}

extension HubSession {
    /// Sends `request` without throwing; a status in `allowed` counts as answered.
    package func exchange(_ request: HubRequest, allowing allowed: Set<Int> = []) async -> HubExchange {
        let provider = tokens
        do {
            let result = try await transport.execute(
                request, authorization: { provider.token().headerValue }, policy: policy)
            let status = result.response.status
            if (200..<300).contains(status) || allowed.contains(status) { return .answered(result) }
            return .refused(
                HubFailure.classify(result.response, for: request, now: Date().timeIntervalSince1970), result)
        } catch {
            return .noAnswer(error)
        }
    }
}

extension HubFailure {
    /// The hub-wide stop rule: failures about the key, the token or the hub itself, which every later request
    /// of the batch would meet too, so a batch stops starting items.
    package var stopsBatch: Bool {
        switch kind {
        case .invalidSignature, .expiredToken, .unauthorized, .missingRight: true
        case .notFound: detail?.contains("No service is hosted") == true
        default: false
        }
    }
}

extension TransportError {
    /// The hub-wide stop rule for a request with no answer: an unreachable hub stops the batch (the next request
    /// would not fare better); an ambiguous one (written, no answer) is the item's own.
    package var stopsBatch: Bool { kind == .unreachable }
}
