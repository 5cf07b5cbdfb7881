import Foundation
import HTTPTypes
import HubWire
import Hummingbird
import PipelineCore
import ServiceMetrics

/// One route of `pushline serve`: method, path template, the scope it needs (nil: open to anyone) and its handler.
struct ServeRoute: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let scope: Scope?
    let handler: @Sendable (Request, ServeContext) async throws -> Response

    init(
        _ method: HTTPRequest.Method, _ path: String, _ scope: Scope?,
        _ handler: @escaping @Sendable (Request, ServeContext) async throws -> Response
    ) {
        self.method = method
        self.path = path
        self.scope = scope
        self.handler = handler
    }
}

extension PushServer {
    /// Every route, in the order a 405's `Allow` lists their methods. Adding a route is one line here (and its
    /// operation in `openapi.json`, which a test holds to these).
    var routes: [ServeRoute] {
        [
            ServeRoute(.get, "/healthz", nil) { _, _ in .json(.ok, #"{"status":"ok"}"#) },
            ServeRoute(.get, "/readyz", nil) { _, _ in try await self.ready() },
            ServeRoute(.get, "/openapi.json", nil) { _, _ in .json(.ok, Self.openAPIDocument) },
            // The seed tutorial's device routes, the official sample backend's, and the versioned ones.
            ServeRoute(.post, "/api/register", .register) { request, context in
                try await self.createRegistrationID(request, caller: context.caller, now: self.now)
            },
            ServeRoute(.put, "/api/register/:id", .register) { request, context in
                try await self.upsertRegistration(request, id: context.id, caller: context.caller, now: self.now)
            },
            ServeRoute(.delete, "/api/register/:id", .register) { _, context in
                try await self.deleteRegistration(id: context.id, caller: context.caller)
            },
            ServeRoute(.put, "/api/notifications/installations", .register) { request, context in
                try await self.putInstallation(request, caller: context.caller)
            },
            ServeRoute(.delete, "/api/notifications/installations/:id", .register) { _, context in
                try await self.deleteInstallation(id: context.id, caller: context.caller)
            },
            ServeRoute(.put, "/v1/installations/:id", .register) { request, context in
                try await self.putVersionedInstallation(request, id: context.id, caller: context.caller)
            },
            ServeRoute(.get, "/v1/installations/:id", .register) { _, context in
                try await self.getVersionedInstallation(id: context.id, caller: context.caller)
            },
            ServeRoute(.delete, "/v1/installations/:id", .register) { _, context in
                try await self.deleteInstallation(id: context.id, caller: context.caller)
            },
            // Sending.
            ServeRoute(.post, "/api/notifications", .send) { request, context in
                try await self.notifyUser(request, caller: context.caller)
            },
            ServeRoute(.post, "/api/notifications/requests", .send) { request, context in
                try await self.notificationRequest(request, caller: context.caller)
            },
            // Operations.
            ServeRoute(.get, "/metrics", .admin) { _, _ in
                .text(.ok, contentType: ServiceMetrics.contentType, self.metrics.exposition())
            },
            ServeRoute(.post, "/v1/pipelines/:name/runs", .admin) { request, context in
                try await self.runs.start(
                    request, name: context.parameter("name"), caller: context.caller, now: self.now)
            },
            ServeRoute(.get, "/v1/runs/:id", .admin) { _, context in try await self.runs.show(id: context.id) },
        ]
    }

    /// The router: open routes, then the rest behind one middleware per concern, in this order — the request's shape
    /// (404, 400), the address's rate limit, authentication (hummingbird-auth), the caller's rate limit — and a
    /// route collection per scope behind its scope check. `Observe` wraps everything: the access log, metrics and
    /// spans, and every refusal as problem+json. Paths match without regard to case; HEAD is answered wherever GET is
    /// (RFC 9110 §9.3.2).
    package func router() -> Router<ServeContext> {
        let routes = self.routes
        var allowed = AllowedMethods()
        for route in routes {
            allowed.add(route.path, route.method)
            if route.method == .get { allowed.add(route.path, .head) }
        }
        let router = Router(context: ServeContext.self, options: [.caseInsensitive, .autoGenerateHeadEndpoints])
        router.add(middleware: Observe(clientAddress: clientAddress, allowed: allowed, log: log, metrics: metrics))
        for route in routes where route.scope == nil {
            router.on(RouterPath(route.path), method: route.method, use: route.handler)
        }
        let signedIn = router.group()
            .add(middleware: RequestShape())
            .add(middleware: AddressLimit(limiter: perAddress, clock: clock))
            .add(middleware: authenticator)
            .add(middleware: IdentityLimit(limiter: perIdentity, clock: clock))
        for scope in Scope.allCases {
            let collection = RouteCollection(context: ServeContext.self).add(middleware: RequireScope(scope: scope))
            for route in routes where route.scope == scope {
                collection.on(RouterPath(route.path), method: route.method, use: route.handler)
            }
            signedIn.addRoutes(collection)
        }
        return router
    }

    /// The router, built: what `HTTPServer` serves.
    public func responder() -> RouterResponder<ServeContext> { router().buildResponder() }

    /// Seconds since 1970 by the server's clock.
    var now: Double { clock.now().timeIntervalSince1970 }
}

extension ServeContext {
    /// The path's `id`, percent-decoded (`RequestShape` has checked every segment decodes).
    var id: String { parameter("id") }

    /// The path parameter `name`, percent-decoded.
    func parameter(_ name: String) -> String {
        let raw = parameters.get(name) ?? ""
        return PercentCoding.decode(raw, plusAsSpace: false) ?? raw
    }
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
