import Foundation
import HubWire
import PipelineCore
import Synchronization

/// The hub transport step and session tests send through: it records every request, answers each from a script
/// (the queued `responses` first, then `script`, then what NH answers on success), can hold each request for a delay,
/// calls a hook with each one while it is in flight, and tracks how many requests were in flight at once.
package final class ScriptedTransport: HubTransport {
    /// The answer to the n-th request (1-based), or a transport error; nil for the next queued response or the usual
    /// success.
    package typealias Script = @Sendable (HubRequest, Int) -> Result<HubResponse, TransportError>?

    private struct State {
        var requests: [HubRequest] = []
        var queued: [HubResponse]
        var inFlight = 0
        var maxInFlight = 0
        var registrationIDs = 0
    }

    private let state: Mutex<State>
    private let delay: Duration?
    private let script: Script?
    private let attempts: Int
    private let trackingId: String?
    private let onRequest: (@Sendable (HubRequest, Int) async -> Void)?

    /// Answers `responses` in order, then from `script`, then as NH does on success. Each answer reports `attempts`
    /// and `trackingId` (by default 1 and `t-N` for the N-th request); `onRequest` is awaited with each request (and
    /// its number) while it is in flight.
    package init(
        _ responses: [HubResponse] = [], delay: Duration? = nil, attempts: Int = 1, trackingId: String? = nil,
        script: Script? = nil, onRequest: (@Sendable (HubRequest, Int) async -> Void)? = nil
    ) {
        state = Mutex(State(queued: responses))
        self.delay = delay
        self.script = script
        self.attempts = attempts
        self.trackingId = trackingId
        self.onRequest = onRequest
    }

    /// Every request, in the order they arrived.
    package var requests: [HubRequest] { state.withLock { $0.requests } }
    /// The most requests that were in flight at once.
    package var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    package func execute(
        _ request: HubRequest, authorization: @escaping @Sendable () -> String, policy: RetryPolicy
    ) async throws(TransportError) -> TransportResult {
        let number = state.withLock { state in
            state.requests.append(request)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return state.requests.count
        }
        await onRequest?(request, number)
        if let delay { try? await Task.sleep(for: delay) }
        let queued = state.withLock { state -> HubResponse? in
            state.inFlight -= 1
            return state.queued.isEmpty ? nil : state.queued.removeFirst()
        }
        let answer = queued.map { .success($0) } ?? script?(request, number) ?? .success(success(request, number))
        return TransportResult(
            response: try answer.get(), attempts: attempts, elapsedMs: 0, trackingId: trackingId ?? "t-\(number)")
    }

    /// What NH answers on success: a new registration id is 201 with its Location (reg-1, reg-2, …), a send 201 with
    /// the notification's Location (n1 for the first request, n2 for the second, …), a delete 204, anything else 200.
    private func success(_ request: HubRequest, _ number: Int) -> HubResponse {
        guard request.method == .post else { return HubResponse(status: request.method == .delete ? 204 : 200) }
        if let hub = request.url.range(of: "/registrationids", options: .caseInsensitive) {
            let id = state.withLock {
                $0.registrationIDs += 1
                return $0.registrationIDs
            }
            let location = String(request.url[..<hub.lowerBound]) + "/registrationids/reg-\(id)?api-version=2020-06"
            return HubResponse(status: 201, headers: [HubHeader("Location", location)])
        }
        let hub = request.url.range(of: "/messages").map { String(request.url[..<$0.lowerBound]) } ?? "http://h/myhub"
        return HubResponse(
            status: 201, headers: [HubHeader("Location", hub + "/messages/n\(number)?api-version=2020-06")])
    }
}
