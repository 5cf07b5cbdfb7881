import Foundation
import HubClient
import HubWire
import PipelineCore
import Tracing

/// `HubTransport` with NH's retry rules over any `HTTPExecutor`.
///
/// Retried: 429, 403 with Retry-After, 408, 503, and 500/504 when the request is idempotent;
/// connection failures before the request was written. Not retried blindly: a send (POST) whose
/// outcome is unknown (no response after writing, 500, 504) fails as `ambiguous`, unless the policy
/// allows resending. Waits honour Retry-After (seconds or HTTP date), else exponential backoff with
/// jitter, capped by the policy.
package struct RetryingTransport: HubTransport {
    let executor: any HTTPExecutor
    let limit: ConcurrencyLimit
    let userAgent: String
    let sleep: @Sendable (Double) async -> Void
    let jitter: @Sendable () -> Double
    let now: @Sendable () -> Double
    /// Requests in flight at once unless told otherwise.
    package static let defaultMaxConcurrent = 16

    package var preferredExecutor: (any TaskExecutor)? { executor.preferredExecutor }

    /// Creates a transport.
    /// - Parameters:
    ///   - maxConcurrent: requests in flight at once, across all callers.
    ///   - sleep: waits the given seconds (tests pass a recorder).
    ///   - jitter: a factor in 0.5...1 applied to backoff delays.
    ///   - now: epoch seconds, for HTTP-date Retry-After values.
    package init(
        executor: any HTTPExecutor, maxConcurrent: Int = defaultMaxConcurrent, userAgent: String = "Pushline/1.0",
        sleep: @escaping @Sendable (Double) async -> Void = { seconds in try? await Task.sleep(for: .seconds(seconds))
        },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0.5...1) },
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.executor = executor
        self.limit = ConcurrencyLimit(maxConcurrent)
        self.userAgent = userAgent
        self.sleep = sleep
        self.jitter = jitter
        self.now = now
    }

    /// Sends `request` with retries, in a span of its own when the run is traced (its attempts are one span: the
    /// TrackingId is the same on each).
    package func execute(
        _ request: HubRequest, authorization: @escaping @Sendable () -> String, policy: RetryPolicy
    ) async throws(TransportError) -> TransportResult {
        guard HubRequestSpan.isRecording else {
            return try await attempts(request, authorization: authorization, policy: policy)
        }
        let result = await withSpan(HubRequestSpan.name(request), ofKind: .client) { span in
            let result: Result<TransportResult, TransportError>
            do throws(TransportError) {
                result = .success(try await attempts(request, authorization: authorization, policy: policy))
            } catch {
                result = .failure(error)
            }
            HubRequestSpan.describe(request, result, on: span)
            return result
        }
        return try result.get()
    }

    private func attempts(
        _ request: HubRequest, authorization: @escaping @Sendable () -> String, policy: RetryPolicy
    ) async throws(TransportError) -> TransportResult {
        let trackingId = RandomID.uuidString()
        if let problem = request.unwritableHeader {
            throw TransportError(
                kind: .unsendable, message: "\(request.summary): \(problem); nothing was sent", attempts: 0,
                trackingId: trackingId)
        }
        let started = ContinuousClock.now
        var attempt = 0
        var throttles = 0
        while true {
            attempt += 1
            let headers = [
                HubHeader("Authorization", authorization()), HubHeader("TrackingId", trackingId),
                HubHeader("User-Agent", userAgent),
            ]
            await limit.acquire()
            let outcome = await executor.perform(request, extraHeaders: headers)
            await limit.release()
            let canRetry = attempt <= policy.maxRetries
            switch outcome {
            case .response(let response):
                let decision = Self.decide(response, request: request, policy: policy)
                if decision == .ambiguous {
                    throw TransportError(
                        kind: .ambiguous,
                        message:
                            "\(request.summary): the hub answered \(response.status); the send may or may not have been accepted",
                        attempts: attempt, trackingId: trackingId)
                }
                let retrying = decision == .retry && canRetry
                let throttled = Self.isThrottling(response)
                guard retrying || throttled else {
                    return TransportResult(
                        response: response, attempts: attempt, elapsedMs: Self.ms(since: started),
                        trackingId: trackingId,
                        throttles: throttles)
                }
                let advised = RetryAfter.seconds(response.header("Retry-After"), now: now())
                let wait = min(policy.maxDelay, advised ?? backoff(attempt, policy))
                if throttled {
                    throttles += 1
                    // Throttling is the hub's, not this request's: the batch (and the other processes sending to the
                    // hub) hold back now rather than each meeting it in turn, also when this request gives up.
                    if let observer = policy.throttle { await observer.throttled(for: wait) }
                }
                guard retrying else {
                    return TransportResult(
                        response: response, attempts: attempt, elapsedMs: Self.ms(since: started),
                        trackingId: trackingId,
                        throttles: throttles)
                }
                await sleep(wait)
            case .notSent(let reason):
                guard canRetry else {
                    throw TransportError(
                        kind: .unreachable, message: "\(request.summary): cannot reach the hub: \(reason)",
                        attempts: attempt, trackingId: trackingId)
                }
                // Half the usual waits: nothing reached the hub, and an endpoint that refuses connections (a wrong
                // address, a hub not started, a certificate not trusted) is said within a few seconds, not ten.
                await sleep(backoff(attempt, policy) / 2)
            case .noResponse(let reason):
                guard request.isIdempotent || policy.retryAmbiguous else {
                    throw TransportError(
                        kind: .ambiguous,
                        message:
                            "\(request.summary): no response after the request was sent (\(reason)); it may or may not have been accepted",
                        attempts: attempt, trackingId: trackingId)
                }
                guard canRetry else {
                    throw TransportError(
                        kind: request.isIdempotent ? .unreachable : .ambiguous,
                        message: "\(request.summary): no response after \(attempt) attempts (\(reason))",
                        attempts: attempt, trackingId: trackingId)
                }
                await sleep(backoff(attempt, policy))
            }
        }
    }

    enum Decision: Equatable { case done, retry, ambiguous }

    /// NH's throttling answers: 429, or 403 with Retry-After (nh-rest-api.md §8).
    static func isThrottling(_ response: HubResponse) -> Bool {
        response.status == 429 || (response.status == 403 && response.header("Retry-After") != nil)
    }

    /// What to do with a response.
    static func decide(_ response: HubResponse, request: HubRequest, policy: RetryPolicy) -> Decision {
        switch response.status {
        case 429, 408, 503:
            return .retry
        case 403 where response.header("Retry-After") != nil:
            return .retry
        case 500, 504:
            // The server may have acted on the request before failing.
            if request.isIdempotent || policy.retryAmbiguous { return .retry }
            return .ambiguous
        default:
            return .done
        }
    }

    private func backoff(_ attempt: Int, _ policy: RetryPolicy) -> Double {
        min(policy.maxDelay, policy.baseDelay * pow(2, Double(attempt - 1)) * jitter())
    }

    private static func ms(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
