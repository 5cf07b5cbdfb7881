import HubWire
import Synchronization

/// The transport of a dry run: records each request instead of sending it and answers as the
/// service would on success, so steps run their normal path and show what they would send.
public final class DryRunTransport: HubTransport {
    private let recorded = Mutex<[HubRequest]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Every request a step asked to send, in order.
    public var requests: [HubRequest] { recorded.withLock { $0 } }

    public func execute(
        _ request: HubRequest, authorization: @escaping @Sendable () -> String, policy: RetryPolicy
    ) async throws(TransportError) -> TransportResult {
        let count = recorded.withLock { $0.append(request); return $0.count }
        var headers: [HubHeader] = []
        var status = 200
        if request.method == .post {
            status = 201
            headers.append(HubHeader("Location", request.url.replacingQuery(withPath: "dry-run-\(count)")))
        }
        return TransportResult(response: HubResponse(status: status, headers: headers), attempts: 0, elapsedMs: 0,
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
