import HubWire
import Synchronization

/// The transport of a dry run: counts each request instead of sending it and answers as the
/// service would on success, so steps run their normal path and show what they would send.
///
/// Only the first `kept` requests are held, so a dry run over a million rows stays in constant memory.
package final class DryRunTransport: HubTransport {
    private let recorded = Mutex<(requests: [HubRequest], count: Int)>(([], 0))
    private let kept: Int

    /// Creates an empty recorder that keeps the first `kept` requests.
    package init(kept: Int = 1000) {
        self.kept = kept
    }

    /// The first requests a step asked to send, in order (at most `kept`).
    package var requests: [HubRequest] { recorded.withLock { $0.requests } }

    /// How many requests were asked for.
    package var count: Int { recorded.withLock { $0.count } }

    package func execute(
        _ request: HubRequest, authorization: @escaping @Sendable () -> String, policy: RetryPolicy
    ) async throws(TransportError) -> TransportResult {
        // What a run could not send, a dry run does not show as sent.
        if let problem = request.unwritableHeader {
            throw TransportError(
                kind: .unsendable, message: "\(request.summary): \(problem); nothing was sent", attempts: 0,
                trackingId: "")
        }
        let count = recorded.withLock { state -> Int in
            state.count += 1
            if state.requests.count < kept { state.requests.append(request) }
            return state.count
        }
        var headers: [HubHeader] = []
        var status = 200
        if request.method == .post {
            status = 201
            headers.append(HubHeader("Location", request.url.replacingQuery(withPath: "dry-run-\(count)")))
        }
        return TransportResult(
            response: HubResponse(status: status, headers: headers), attempts: 0, elapsedMs: 0,
            trackingId: "dry-run")
    }
}

extension String {
    /// `…/messages?api-version=…` → `…/messages/<last>?api-version=…`: a Location-shaped URL.
    fileprivate func replacingQuery(withPath last: String) -> String {
        guard let question = firstIndex(of: "?") else { return self + "/" + last }
        return self[..<question] + "/" + last + self[question...]
    }
}
