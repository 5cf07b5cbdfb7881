import Foundation
import HubWire
import HTTPTypes
import Hummingbird

/// Answers every request: the side channel, or `/{hub}/…` with auth, faults and the NH routes.
struct EmulatorResponder: HTTPResponder {
    typealias Context = EmulatorContext

    /// Largest request body read at all; sends are held to NH's 64 KB separately (413).
    static let maxBodyBytes = 1 << 20

    let store: EmulatorStore
    let configuration: EmulatorConfiguration
    /// `<namespace>.servicebus.windows.net`: tokens signed for the real service's host are accepted.
    let namespaceHost: String
    /// The emulator's clock (possibly offset from this machine's).
    let now: @Sendable () -> Date

    init(store: EmulatorStore, configuration: EmulatorConfiguration, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.configuration = configuration
        self.now = now
        namespaceHost = "\(configuration.namespace).servicebus.windows.net".lowercased()
    }

    func respond(to request: Request, context: EmulatorContext) async throws -> Response {
        let trackingId = request.headers[.trackingId] ?? UUID().uuidString
        var response: Response
        do {
            response = try await handle(request, context: context)
        } catch let error as EmulatorError {
            response = await errorResponse(error, trackingId: trackingId)
        }
        response.headers[.trackingId] = trackingId
        response.headers[.correlationId] = trackingId
        return response
    }

    private func handle(_ request: Request, context: EmulatorContext) async throws -> Response {
        let path = Substring(request.uri.path)
        if path.hasPrefix("/_emulator/") { return try await sideChannel(request, path: path.dropFirst("/_emulator/".count), context: context) }
        guard let (hub, rest) = configuration.hub(forPath: path) else {
            throw EmulatorError.notFound("No service is hosted at the specified address.")
        }
        guard let route = Route(path: rest) else { throw EmulatorError.notFound("No such resource: \(request.uri.path)") }
        let query = QueryString(request.uri.query)
        guard let apiVersion = query["api-version"], !apiVersion.isEmpty else {
            throw EmulatorError.badRequest("The api-version query parameter is required.")
        }
        try authorize(request, hub: hub, route: route, query: query)
        if try await injectFault(route.operation, context: context) { return Response(status: .ok) }
        let call = Call(request: request, hub: hub.name, route: route, query: query, apiVersion: apiVersion,
                        base: baseURL(request))
        return try await dispatch(call, request: request)
    }

    /// Checks the SAS token with the right the operation needs; a missing right is 403 with an
    /// empty body, as the service answered in recorded traffic (§1.6).
    private func authorize(_ request: Request, hub: EmulatorConfiguration.Hub, route: Route, query: QueryString) throws {
        let right = route.right(method: request.method.rawValue, hasFilter: query.has("$filter"))
        // The emulator's own host:port is a valid audience host too: clients sign the URL they call.
        let host = (request.head.authority ?? request.headers[.init("Host")!] ?? "").lowercased()
        let verifier = SASVerifier(policies: hub.policies, acceptedHosts: [namespaceHost, host], clockSkew: configuration.clockSkew)
        do {
            _ = try verifier.verify(authorization: request.headers[.authorization], path: request.uri.path, right: right,
                                    now: Int64(now().timeIntervalSince1970))
        } catch {
            if case .missingRight = error.kind { throw EmulatorError(403, "") }
            throw EmulatorError(error.status, error.detail)
        }
    }

    /// Applies the configured faults; true when the connection was dropped (the response is discarded).
    private func injectFault(_ operation: FaultRule.Operation, context: EmulatorContext) async throws -> Bool {
        for rule in configuration.faults where rule.matches(operation) && Double.random(in: 0..<1) < rule.rate {
            switch rule.effect {
            case .status(let status, let retryAfter):
                throw EmulatorError(status, "Injected fault \(status).", retryAfter: retryAfter)
            case .dropConnection:
                context.dropConnection()
                return true
            }
        }
        return false
    }

    private func baseURL(_ request: Request) -> String {
        let host = request.head.authority ?? request.headers[.init("Host")!] ?? "\(configuration.namespace).servicebus.windows.net"
        return "http://\(host)"
    }

    /// The NH error body (§9) with TrackingId and timestamp; empty for 403 missing-claim answers.
    private func errorResponse(_ error: EmulatorError, trackingId: String) async -> Response {
        var headers = HTTPFields()
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        guard !error.detail.isEmpty || error.status != 403 else {
            return Response(status: .init(code: error.status), headers: headers)
        }
        headers[.contentType] = "application/xml; charset=utf-8"
        let body = NHErrorBody.render(status: error.status, detail: error.detail, trackingId: trackingId,
                                      timestamp: Self.errorTimestamp(now()))
        return Response(status: .init(code: error.status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// `M/d/yyyy h:mm:ss tt` in UTC, as NH error details carry it.
    static func errorTimestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let hour = parts.hour ?? 0
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(parts.month ?? 1)/\(parts.day ?? 1)/\(parts.year ?? 1970) \(twelve):\(String(format: "%02d:%02d", parts.minute ?? 0, parts.second ?? 0)) \(hour < 12 ? "AM" : "PM")"
    }
}

/// One NH request, routed.
struct Call {
    let request: Request
    let hub: String
    let route: Route
    let query: QueryString
    let apiVersion: String
    /// `http://host:port` the client called, for Location headers.
    let base: String

    /// `base/hub/path?api-version=…` for Location and Content-Location headers.
    func url(_ path: String, extraQuery: String = "") -> String {
        "\(base)/\(hub)/\(path)?api-version=\(apiVersion)\(extraQuery)"
    }
}

extension HTTPField.Name {
    static let trackingId = HTTPField.Name("TrackingId")!
    static let correlationId = HTTPField.Name("x-ms-correlation-request-id")!
    static let notificationFormat = HTTPField.Name("ServiceBusNotification-Format")!
    static let notificationTags = HTTPField.Name("ServiceBusNotification-Tags")!
    static let deviceHandle = HTTPField.Name("ServiceBusNotification-DeviceHandle")!
    static let scheduleTime = HTTPField.Name("ServiceBusNotification-ScheduleTime")!
    static let continuationToken = HTTPField.Name("x-ms-continuationtoken")!
}
