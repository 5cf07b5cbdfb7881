import Foundation
import HTTPServing
import HubWire
import PipelineCore

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
    let log: AccessLog

    /// A server for `settings`, talking to the hub through `transport`; `users` are those of the htpasswd file.
    public init(settings: ServiceSettings, users: UserDirectory?, transport: any HubTransport, clock: WallClock = .system,
                log: AccessLog = .disabled) throws(StepFailure) {
        self.settings = settings
        hub = HubCall(session: try HubSession(hub: settings.hub, transport: transport,
                                              policy: RetryPolicy(maxRetries: 2, baseDelay: 0.5, maxDelay: 5), clock: clock))
        authenticator = Authenticator(users: users, userScopes: settings.userScopes, keys: settings.apiKeys,
                                      failedSignInsPerMinute: settings.failedSignInsPerMinute)
        tags = TagPolicy(identityPrefix: settings.identityTagPrefix, allowed: settings.allowedTags, maxTags: settings.maxTags)
        perIdentity = RateLimiter(perMinute: settings.perIdentityPerMinute)
        perAddress = RateLimiter(perMinute: settings.perAddressPerMinute)
        self.clock = clock
        self.log = log
    }

    /// Answers one request; never throws, never answers a secret.
    public func handle(_ request: ServedRequest) async -> ServedResponse {
        let started = ContinuousClock.now
        let route = Route(method: request.method, path: request.path)
        var caller: Caller?
        var response: ServedResponse
        do {
            response = try await answer(request, route: route, caller: &caller)
        } catch {
            response = error.response
        }
        log.record(request: request, route: route, status: response.status.code, caller: caller,
                   elapsed: ContinuousClock.now - started)
        return response
    }

    private func answer(_ request: ServedRequest, route: Route, caller: inout Caller?) async throws(Problem) -> ServedResponse {
        let now = clock.now().timeIntervalSince1970
        switch route {
        case .healthz: return json(.ok, #"{"status":"ok"}"#)
        case .readyz: return try await ready()
        case .unknown: throw .notFound("no route \(request.method) \(request.path); see /openapi.json")
        case .wrongMethod(let allowed):
            throw Problem(.methodNotAllowed, "Method Not Allowed", "\(request.path) answers \(allowed.map(\.rawValue).joined(separator: ", "))",
                          headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")])
        default: break
        }
        let address = request.peerIP ?? "local"
        if let wait = perAddress.take(address, now: now) {
            throw .tooManyRequests(retryAfter: wait, "too many requests from this address; try again in \(wait) s")
        }
        let signedIn = try await authenticator.authenticate(request, address: address, now: now)
        caller = signedIn
        if let wait = perIdentity.take(signedIn.kind.rawValue + ":" + signedIn.name, now: now) {
            throw .tooManyRequests(retryAfter: wait, "too many requests from \(signedIn.name); try again in \(wait) s")
        }
        if let scope = route.scope, !signedIn.scopes.contains(scope) {
            throw .forbidden("this needs the `\(scope.rawValue)` scope, which \(signedIn.kind == .user ? "user" : "API key") '\(signedIn.name)' does not have")
        }
        switch route {
        case .createRegistrationID: return try await createRegistrationID(request, caller: signedIn, now: now)
        case .upsertRegistration(let id): return try await upsertRegistration(request, id: id, caller: signedIn, now: now)
        case .deleteRegistration(let id): return try await deleteRegistration(id: id, caller: signedIn)
        case .notifyUser: return try await notifyUser(request, caller: signedIn)
        case .putInstallation: return try await putInstallation(request, caller: signedIn)
        case .deleteInstallation(let id): return try await deleteInstallation(id: id, caller: signedIn)
        case .notificationRequest: return try await notificationRequest(request, caller: signedIn)
        case .healthz, .readyz, .unknown, .wrongMethod: throw .notFound("no such route")
        }
    }

    /// Ready when the hub answers a read with the service's key (`GET registrations?$top=1`).
    private func ready() async throws(Problem) -> ServedResponse {
        do {
            _ = try await hub.perform(HubRequests.registrations(handle: nil, tag: nil, top: 1, continuation: nil, at: hub.session.endpoint))
        } catch {
            throw Problem(.serviceUnavailable, "Service Unavailable", "not ready: \(error.detail)")
        }
        return json(.ok, #"{"status":"ready"}"#)
    }

    /// A body of at most the configured size.
    func body(_ request: ServedRequest) async throws(Problem) -> [UInt8] {
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
