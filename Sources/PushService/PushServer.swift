import Engine
import Foundation
import HTTPTypes
import HubClient
import HubWire
import Hummingbird
import PipelineCore
import PushlineLogging
import RunFlow
import ServiceMetrics
import Synchronization
import TokenVerification

/// `pushline serve`: the notify-users backend. Devices register through it (it owns the hub key and decides the
/// tags) and signed-in users notify each other by name. The routes keep the seed tutorial's wire shapes, so its
/// apps work unchanged, and close its holes: real sign-in, scopes, ownership, tag rules, limits.
public final class PushServer: Sendable {
    let settings: ServiceSettings
    let hub: HubCall
    let authenticator: Authenticator
    let tags: TagPolicy
    let issued = IssuedIDs()
    let perIdentity: RateLimiter
    let perAddress: RateLimiter
    let clock: WallClock
    let clientAddress: ClientAddress
    /// The pipelines callers with `admin` may run, and the runs they started.
    let runs: PipelineRuns
    /// The last readiness probe: when, and whether the hub answered.
    let readiness = Mutex<(at: Double, ready: Bool)?>(nil)
    let log: AccessLog
    let metrics: ServiceMetrics
    /// How request bodies are read.
    let jsonBody: JSONBody

    /// A server for `settings` alone, talking to the hub through `transport`: API keys only, no users file, no
    /// pipelines (what the request fuzzer drives).
    public convenience init(settings: ServiceSettings, transport: any HubTransport) throws(StepFailure) {
        try self.init(settings: settings, users: nil, transport: transport)
    }

    /// A server for `settings`, talking to the hub through `transport`; `users` are those of the htpasswd file.
    package init(
        settings: ServiceSettings, users: UserDirectory?, transport: any HubTransport, clock: WallClock = .system,
        log: AccessLog = .disabled, metrics: ServiceMetrics = ServiceMetrics(), pipelines: [ServedPipeline] = [],
        runConsole: Console = .standard, runEngine: PipelineEngine? = nil, bearer: BearerTokens? = nil
    ) throws(StepFailure) {
        self.settings = settings
        jsonBody = JSONBody(limit: settings.maxBodyBytes)
        runs = PipelineRuns(
            pipelines: pipelines, console: runConsole,
            engine: runEngine
                ?? PipelineEngine(logger: PushlineLogging.logger(label: "pushline", level: "info")!, clock: clock),
            body: JSONBody(limit: settings.maxBodyBytes))
        hub = HubCall(
            session: try HubSession(
                hub: settings.hub, transport: transport,
                policy: RetryPolicy(maxRetries: 2, baseDelay: 0.5, maxDelay: 5), clock: clock),
            metrics: metrics)
        self.metrics = metrics
        authenticator = Authenticator(
            users: users, userScopes: settings.userScopes, keys: settings.apiKeys,
            failedSignInsPerMinute: settings.failedSignInsPerMinute, bearer: bearer,
            bearerScopes: settings.bearerScopes, identityPrefix: settings.identityTagPrefix, clock: clock)
        tags = TagPolicy(
            identityPrefix: settings.identityTagPrefix, allowed: settings.allowedTags, maxTags: settings.maxTags)
        perIdentity = RateLimiter(perMinute: settings.perIdentityPerMinute)
        perAddress = RateLimiter(perMinute: settings.perAddressPerMinute)
        self.clock = clock
        clientAddress = ClientAddress(trustedProxies: settings.trustedProxies)
        self.log = log
    }

    /// Waits until every run started over HTTP has ended (a graceful shutdown lets them finish; a run cut off
    /// harder resumes on its next start, as any run does).
    public func waitForRuns() async { await runs.waitForRuns() }

    /// Closes the run store that reads use; call once the server has stopped answering.
    public func closeRunStore() async { await runs.closeRunStore() }

    /// Ready when the hub accepts the service's key for a read: a GET of a registration id that cannot exist, which
    /// needs only the Listen right every device route needs anyway and is answered 404. The answer is kept for 10 s,
    /// so probes cannot spend the hub's quota, and says no more than ready or not (the log has the reason).
    func ready() async throws(Problem) -> Response {
        let now = clock.now().timeIntervalSince1970
        let known = readiness.withLock { $0 }.flatMap { now - $0.at < 10 ? $0.ready : nil }
        let isReady: Bool
        if let known {
            isReady = known
        } else {
            let probe = HubRequests.getRegistration(id: "pushline-readiness-probe", at: hub.session.endpoint)
            do {
                _ = try await hub.perform(probe, allowing: [404])
                isReady = true
            } catch {
                isReady = false
                log.event("not-ready", reason: error.detail)
            }
            readiness.withLock { $0 = (now, isReady) }
        }
        guard isReady else {
            throw Problem(
                .serviceUnavailable, "Service Unavailable",
                "not ready: the notification hub does not accept this service's requests",
                headers: [.retryAfter: "10"])
        }
        return .json(.ok, #"{"status":"ready"}"#)
    }
}
