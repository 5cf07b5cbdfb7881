import Foundation
import HubWire
import PipelineCore
import Synchronization
import Testing

@testable import HubHTTP

@Suite struct RetryingTransportTests {
    let token: @Sendable () -> String = { "SharedAccessSignature sr=x&sig=y&se=1&skn=p" }

    @Test func successOnFirstAttempt() async throws {
        let executor = ScriptedExecutor([response(201)])
        let sleeps = SleepRecorder()
        let result = try await transport(executor, sleeps).execute(send, authorization: token, policy: RetryPolicy())
        #expect(result.response.status == 201)
        #expect(result.attempts == 1)
        #expect(sleeps.sleeps == [])
        let headers = executor.attempts[0].map(\.name)
        #expect(headers == ["Authorization", "TrackingId", "User-Agent"])
    }

    /// A header that cannot be written (a line break, from a row or a value) is the request's own failure, found
    /// before any attempt: nothing is written, nothing retried, and it does not read as an unreachable hub.
    @Test func aRequestWithAnUnwritableHeaderIsNeverAttempted() async throws {
        let executor = ScriptedExecutor([response(201)])
        let sleeps = SleepRecorder()
        var bad = send
        bad.headers.append(HubHeader("apns-collapse-id", "a\r\nX-Injected: 1"))
        let error = await #expect(throws: TransportError.self) {
            try await transport(executor, sleeps).execute(bad, authorization: token, policy: RetryPolicy())
        }
        #expect(error?.kind == .unsendable)
        #expect(error?.attempts == 0)
        #expect(
            error?.message
                == "\(send.summary): the value of header apns-collapse-id holds a line break, which a header cannot carry; nothing was sent"
        )
        #expect(executor.attempts.isEmpty)
        #expect(sleeps.sleeps == [])
    }

    @Test func throttlingHonoursRetryAfterThenSucceeds() async throws {
        let executor = ScriptedExecutor([
            response(429, [HubHeader("Retry-After", "2")]), response(403, [HubHeader("retry-after", "3")]),
            response(201),
        ])
        let sleeps = SleepRecorder()
        let result = try await transport(executor, sleeps).execute(send, authorization: token, policy: RetryPolicy())
        #expect(result.response.status == 201)
        #expect(result.attempts == 3)
        #expect(sleeps.sleeps == [2, 3])
        // One TrackingId for the whole operation.
        #expect(Set(executor.attempts.map { $0[1].value }).count == 1)
        #expect(result.trackingId == executor.attempts[0][1].value)
    }

    @Test("the policy's throttle observer hears each throttling with the wait, before it is waited; not other retries")
    func throttlingIsReportedToTheObserver() async throws {
        let executor = ScriptedExecutor([
            response(429, [HubHeader("Retry-After", "2")]), response(503), response(403),
            response(403, [HubHeader("Retry-After", "5")]),
        ])
        let sleeps = SleepRecorder()
        let observer = ThrottleRecorder(sleeps: sleeps)
        var policy = RetryPolicy(maxRetries: 3)
        policy.throttle = observer
        let result = try await transport(executor, sleeps).execute(send, authorization: token, policy: policy)
        // 403 without Retry-After is a missing right: final, and not throttling.
        #expect(result.response.status == 403 && result.attempts == 3)
        #expect(observer.heard.withLock { $0 } == [Heard(seconds: 2, sleepsBefore: 0)])

        // A throttled request that gives up still tells: the hub is throttling whoever sends next.
        let exhausted = ScriptedExecutor([response(429, [HubHeader("Retry-After", "7")])])
        let last = ThrottleRecorder(sleeps: SleepRecorder())
        var once = RetryPolicy(maxRetries: 0)
        once.throttle = last
        let given = try await transport(exhausted, SleepRecorder()).execute(send, authorization: token, policy: once)
        #expect(given.response.status == 429 && given.throttles == 1)
        #expect(last.heard.withLock { $0 }.map(\.seconds) == [7])
    }

    @Test func busyServerIsRetriedWithExponentialBackoffThenGivenUp() async throws {
        let executor = ScriptedExecutor(Array(repeating: response(503), count: 5))
        let sleeps = SleepRecorder()
        let result = try await transport(executor, sleeps).execute(send, authorization: token, policy: RetryPolicy())
        #expect(result.response.status == 503)
        #expect(result.attempts == 4)
        #expect(sleeps.sleeps == [1, 2, 4])
    }

    @Test func retryAfterIsCappedByThePolicy() async throws {
        let executor = ScriptedExecutor([response(429, [HubHeader("Retry-After", "3600")]), response(201)])
        let sleeps = SleepRecorder()
        _ = try await transport(executor, sleeps).execute(send, authorization: token, policy: RetryPolicy(maxDelay: 60))
        #expect(sleeps.sleeps == [60])
    }

    @Test func ambiguousSendIsNotResent() async {
        for outcome in [response(500), response(504), AttemptOutcome.noResponse("read timed out")] {
            let executor = ScriptedExecutor([outcome, response(201)])
            let sleeps = SleepRecorder()
            do {
                _ = try await transport(executor, sleeps).execute(send, authorization: token, policy: RetryPolicy())
                Issue.record("an ambiguous send must not succeed by resending")
            } catch {
                #expect(error.kind == .ambiguous)
                #expect(error.attempts == 1)
            }
            #expect(executor.attempts.count == 1)
        }
    }

    @Test func ambiguousSendIsResentWhenAllowed() async throws {
        let executor = ScriptedExecutor([response(500), .noResponse("reset"), response(201)])
        let result = try await transport(executor, SleepRecorder()).execute(
            send, authorization: token, policy: RetryPolicy(retryAmbiguous: true))
        #expect(result.attempts == 3)
        #expect(result.response.status == 201)
    }

    @Test func idempotentRequestsAreRetriedAfterNoResponseAnd500() async throws {
        let executor = ScriptedExecutor([.noResponse("reset"), response(500), response(200)])
        let result = try await transport(executor, SleepRecorder()).execute(
            put, authorization: token, policy: RetryPolicy())
        #expect(result.attempts == 3)
        #expect(result.response.status == 200)
    }

    @Test func unreachableAfterTheAllowedRetries() async {
        let executor = ScriptedExecutor(Array(repeating: .notSent("connection refused"), count: 10))
        let sleeps = SleepRecorder()
        do {
            _ = try await transport(executor, sleeps).execute(
                send, authorization: token, policy: RetryPolicy(maxRetries: 3))
            Issue.record("expected unreachable")
        } catch {
            #expect(error.kind == .unreachable)
            #expect(error.attempts == 4)
            #expect(error.message.hasSuffix("cannot reach the hub: connection refused"))
        }
        // Half the backoff of an answered retry: a refused endpoint is said within 3.5 s at most.
        #expect(sleeps.sleeps == [0.5, 1, 2])
    }

    @Test func nonRetriableStatusesComeBackAtOnce() async throws {
        for status in [400, 401, 403, 404, 410, 413] {
            let executor = ScriptedExecutor([response(status), response(201)])
            let result = try await transport(executor, SleepRecorder()).execute(
                send, authorization: token, policy: RetryPolicy())
            #expect(result.response.status == status)
            #expect(result.attempts == 1)
        }
    }

    @Test func everyAttemptAsksForTheCurrentToken() async throws {
        let counter = Mutex(0)
        let renewing: @Sendable () -> String = {
            let issued = counter.withLock { count in
                count += 1
                return count
            }
            return "token-\(issued)"
        }
        let executor = ScriptedExecutor([response(503), response(201)])
        _ = try await transport(executor, SleepRecorder()).execute(send, authorization: renewing, policy: RetryPolicy())
        #expect(executor.attempts.map { $0[0].value } == ["token-1", "token-2"])
    }

    @Test func concurrencyIsBounded() async throws {
        let gauge = InFlightGauge()
        let transport = RetryingTransport(executor: gauge, maxConcurrent: 3)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = try await transport.execute(send, authorization: { "t" }, policy: RetryPolicy()) }
            }
            try await group.waitForAll()
        }
        #expect(gauge.peak <= 3)
        #expect(gauge.peak >= 2)
        #expect(gauge.total == 20)
    }
}

/// Counts requests in flight; each takes a few milliseconds.
final class InFlightGauge: HTTPExecutor {
    private let state = Mutex((current: 0, peak: 0, total: 0))
    var peak: Int { state.withLock { $0.peak } }
    var total: Int { state.withLock { $0.total } }

    func perform(_ request: HubRequest, extraHeaders: [HubHeader]) async -> AttemptOutcome {
        state.withLock {
            $0.current += 1
            $0.peak = max($0.peak, $0.current)
            $0.total += 1
        }
        try? await Task.sleep(for: .milliseconds(5))
        state.withLock { $0.current -= 1 }
        return .response(HubResponse(status: 201))
    }
}

/// The name of the thread this runs on (`Thread.current` is not for async code, so this is synchronous).
func currentThreadName() -> String {
    Thread.current.name ?? ""
}

struct Heard: Equatable {
    var seconds: Double
    var sleepsBefore: Int
}

/// Records what a transport reports through `RetryPolicy.throttle`, and how many waits came before each report.
final class ThrottleRecorder: ThrottleObserver {
    let sleeps: SleepRecorder
    let heard = Mutex<[Heard]>([])

    init(sleeps: SleepRecorder) { self.sleeps = sleeps }

    func throttled(for seconds: Double) async {
        let before = sleeps.sleeps.count
        heard.withLock { $0.append(Heard(seconds: seconds, sleepsBefore: before)) }
    }
}
