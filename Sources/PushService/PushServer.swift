import Engine
import Foundation
import HTTPServing
import HubClient
import HubWire
import PipelineCore
import PushlineLogging
import RunFlow
import ServiceMetrics
import Synchronization
import TokenVerification
import Tracing

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
    /// Pipelines callers with `admin` may run, by name.
    let pipelines: [String: ServedPipeline]
    /// Where runs write their console lines, and the environment they read.
    let runConsole: Console
    /// The engine runs use.
    let runEngine: PipelineEngine
    let idempotency = IdempotencyKeys()
    /// The run store reads go through, kept open.
    let runReader: RunStoreReader
    /// Runs started over HTTP and not yet ended, so a shutdown can wait for them.
    let runTasks = Mutex<[UUID: Task<Void, Never>]>([:])
    /// The last readiness probe: when, and whether the hub answered.
    let readiness = Mutex<(at: Double, ready: Bool)?>(nil)
    let log: AccessLog
    let metrics: ServiceMetrics

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
        self.pipelines = Dictionary(pipelines.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.runConsole = runConsole
        runReader = RunStoreReader(environment: runConsole.environment)
        self.runEngine =
            runEngine ?? PipelineEngine(logger: PushlineLogging.logger(label: "pushline", level: "info")!, clock: clock)
        hub = HubCall(
            session: try HubSession(
                hub: settings.hub, transport: transport,
                policy: RetryPolicy(maxRetries: 2, baseDelay: 0.5, maxDelay: 5), clock: clock),
            metrics: metrics)
        self.metrics = metrics
        authenticator = Authenticator(
            users: users, userScopes: settings.userScopes, keys: settings.apiKeys,
            failedSignInsPerMinute: settings.failedSignInsPerMinute, bearer: bearer,
            bearerScopes: settings.bearerScopes, identityPrefix: settings.identityTagPrefix)
        tags = TagPolicy(
            identityPrefix: settings.identityTagPrefix, allowed: settings.allowedTags, maxTags: settings.maxTags)
        perIdentity = RateLimiter(perMinute: settings.perIdentityPerMinute)
        perAddress = RateLimiter(perMinute: settings.perAddressPerMinute)
        self.clock = clock
        clientAddress = ClientAddress(trustedProxies: settings.trustedProxies)
        self.log = log
    }

    /// Answers one request; never throws, never answers a secret.
    public func handle(_ request: ServedRequest) async -> ServedResponse {
        let started = ContinuousClock.now
        let route = Route(method: request.method, path: request.path)
        var caller: Caller?
        // Rate limits, sign-in order and the access log's refusal summaries all go by this address.
        let address = clientAddress.of(request)
        // A span per request when serve is traced, named by the route's template (ids make no new names); the hub
        // requests and pipeline steps it starts are its children.
        let response = await withSpan("serve \(route.name)", ofKind: .server) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["http.route"] = route.name
            let response: ServedResponse
            do throws(Problem) {
                response = try await answer(request, route: route, address: address, caller: &caller)
            } catch {
                response = error.response
            }
            span.attributes["http.response.status_code"] = response.status.code
            if response.status.code >= 500 {
                span.setStatus(SpanStatus(code: .error, message: "answered \(response.status.code)"))
            }
            return response
        }
        let elapsed = ContinuousClock.now - started
        log.record(
            request: request, route: route, status: response.status.code, caller: caller, address: address,
            elapsed: elapsed)
        metrics.request(route: route.name, status: response.status.code, duration: elapsed)
        return response
    }

    private func answer(_ request: ServedRequest, route: Route, address: String, caller: inout Caller?)
        async throws(Problem) -> ServedResponse
    {
        let now = clock.now().timeIntervalSince1970
        switch route {
        case .healthz: return json(.ok, #"{"status":"ok"}"#)
        case .readyz: return try await ready()
        case .openAPI: return json(.ok, Self.openAPIDocument)
        case .unknown: throw .notFound("no route \(request.method) \(request.path); see /openapi.json")
        case .wrongMethod(let allowed):
            throw Problem(
                .methodNotAllowed, "Method Not Allowed",
                "\(request.path) answers \(allowed.map(\.rawValue).joined(separator: ", "))",
                headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")])
        default: break
        }
        guard QueryPairs(request.query).isValid else {
            throw .badRequest("the query string has a broken %-escape or is not UTF-8")
        }
        if let wait = perAddress.take(address, now: now) {
            throw .tooManyRequests(retryAfter: wait, "too many requests from this address; try again in \(wait) s")
        }
        let signedIn = try await authenticator.authenticate(request, address: address, now: now)
        caller = signedIn
        if let wait = perIdentity.take(signedIn.kind.rawValue + ":" + signedIn.name, now: now) {
            throw .tooManyRequests(retryAfter: wait, "too many requests from \(signedIn.name); try again in \(wait) s")
        }
        if let scope = route.scope, !signedIn.scopes.contains(scope) {
            let who =
                switch signedIn.kind {
                case .user: "user"
                case .token: "token user"
                case .apiKey: "API key"
                }
            throw .forbidden("this needs the `\(scope.rawValue)` scope, which \(who) '\(signedIn.name)' does not have")
        }
        switch route {
        case .createRegistrationID: return try await createRegistrationID(request, caller: signedIn, now: now)
        case .upsertRegistration(let id):
            return try await upsertRegistration(request, id: id, caller: signedIn, now: now)
        case .deleteRegistration(let id): return try await deleteRegistration(id: id, caller: signedIn)
        case .notifyUser: return try await notifyUser(request, caller: signedIn)
        case .putInstallation: return try await putInstallation(request, caller: signedIn)
        case .deleteInstallation(let id): return try await deleteInstallation(id: id, caller: signedIn)
        case .putVersionedInstallation(let id):
            return try await putVersionedInstallation(request, id: id, caller: signedIn)
        case .getVersionedInstallation(let id): return try await getVersionedInstallation(id: id, caller: signedIn)
        case .deleteVersionedInstallation(let id): return try await deleteInstallation(id: id, caller: signedIn)
        case .startRun(let name): return try await startRun(request, name: name, caller: signedIn, now: now)
        case .showRun(let id): return try await showRun(id: id)
        case .metrics:
            return ServedResponse(
                status: .ok, headers: [.contentType: ServiceMetrics.contentType], text: metrics.exposition())
        case .notificationRequest: return try await notificationRequest(request, caller: signedIn)
        case .healthz, .readyz, .openAPI, .unknown, .wrongMethod: throw .notFound("no such route")
        }
    }

    /// Waits until every run started over HTTP has ended (a graceful shutdown lets them finish; a run cut off
    /// harder resumes on its next start, as any run does).
    public func waitForRuns() async {
        let tasks = runTasks.withLock { Array($0.values) }
        for task in tasks { await task.value }
    }

    /// Closes the run store that reads use; call once the server has stopped answering.
    public func closeRunStore() async {
        await runReader.close()
    }

    func trackRun(_ task: Task<PipelineRun.Outcome, any Error>) {
        let id = UUID()
        let watcher = Task {
            _ = await task.result
            _ = runTasks.withLock { $0.removeValue(forKey: id) }
        }
        runTasks.withLock { $0[id] = watcher }
    }

    /// Ready when the hub accepts the service's key for a read: a GET of a registration id that cannot exist, which
    /// needs only the Listen right every device route needs anyway and is answered 404. The answer is kept for 10 s,
    /// so probes cannot spend the hub's quota, and says no more than ready or not (the log has the reason).
    private func ready() async throws(Problem) -> ServedResponse {
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
        return json(.ok, #"{"status":"ready"}"#)
    }

    /// A JSON body of at most the configured size. JSON only (`application/json` or `…+json`): a form or text body
    /// is what a browser may send cross-site without asking, so it is refused (415) before it is read.
    func body(_ request: ServedRequest) async throws(Problem) -> [UInt8] {
        let type =
            (request.headers[.contentType] ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        guard type == "application/json" || type.hasSuffix("+json") else {
            throw Problem(
                .unsupportedMediaType, "Unsupported Media Type",
                "send the body as JSON with `Content-Type: application/json`")
        }
        do {
            return try await request.body(upTo: settings.maxBodyBytes)
        } catch {
            throw Problem(.contentTooLarge, "Content Too Large", "the request body is larger than \(error.limit) bytes")
        }
    }

    /// The body decoded as JSON `T`; anything else is a 400 that shows the expected `shape`.
    func decodeBody<T: Decodable>(_ request: ServedRequest, as type: T.Type, shape: String) async throws(Problem) -> T {
        let bytes = try await body(request)
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw .badRequest("the body must be \(shape) as JSON")
        }
    }

    func json(_ status: HTTPStatus, _ text: String) -> ServedResponse {
        ServedResponse(status: status, headers: [.contentType: "application/json; charset=utf-8"], text: text)
    }
}
