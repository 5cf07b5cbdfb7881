import Foundation
import HTTPServing
import HubWire

/// Answers every request: the side channel, or `/{hub}/…` with auth, faults and the NH routes.
struct EmulatorResponder: Sendable {
    /// Largest request body read at all; sends are held to NH's 64 KB separately (413).
    static let maxBodyBytes = 1 << 20

    let store: EmulatorStore
    let configuration: EmulatorConfiguration
    /// `<namespace>.servicebus.windows.net`: tokens signed for the real service's host are accepted.
    let namespaceHost: String
    /// The emulator's clock (possibly offset from this machine's).
    let now: @Sendable () -> Date
    /// `http`, or `https` when served over TLS: the scheme of the URLs it answers with.
    let scheme: String

    init(
        store: EmulatorStore, configuration: EmulatorConfiguration, now: @escaping @Sendable () -> Date,
        scheme: String = "http"
    ) {
        self.store = store
        self.configuration = configuration
        self.now = now
        self.scheme = scheme
        namespaceHost = "\(configuration.namespace).servicebus.windows.net".lowercased()
    }

    func respond(to request: ServedRequest) async -> ServedResponse {
        let trackingId = request.headers[.trackingId] ?? RandomID.uuidString(lowercase: true)
        var response: ServedResponse
        do {
            response = try await handle(request)
        } catch let error as EmulatorError {
            response = errorResponse(error, trackingId: trackingId)
        } catch {
            // Every NH answer is an EmulatorError; anything else is a bug here, answered as NH answers its own.
            response = errorResponse(
                EmulatorError(500, "The emulator failed to process the request."), trackingId: trackingId)
        }
        response.headers[.trackingId] = trackingId
        // Today's service gives each answer a correlation id of its own beside the TrackingId (both lower-case GUIDs).
        response.headers[.correlationId] = RandomID.uuidString(lowercase: true)
        return response
    }

    private func handle(_ request: ServedRequest) async throws -> ServedResponse {
        let path = Substring(request.path)
        if path.hasPrefix("/_emulator/") {
            return try await sideChannel(request, path: path.dropFirst("/_emulator/".count))
        }
        guard let (hub, rest) = configuration.hub(forPath: path) else {
            throw EmulatorError.notFound("No service is hosted at the specified address.")
        }
        guard let route = Route(path: rest) else { throw EmulatorError.notFound("No such resource: \(request.path)") }
        let query = QueryString(request.query)
        guard let apiVersion = query["api-version"], !apiVersion.isEmpty else {
            throw EmulatorError.badRequest("The api-version query parameter is required.")
        }
        try authorize(request, hub: hub, route: route, query: query)
        if let latency = configuration.latency, latency.matches(route.operation) {
            try? await Task.sleep(for: latency.delay)
        }
        if try await injectFault(route.operation, request: request) { return ServedResponse(status: .ok) }
        let call = Call(
            request: request, hub: hub.name, route: route, query: query, apiVersion: apiVersion,
            base: baseURL(request))
        return try await dispatch(call, request: request)
    }

    /// Checks the SAS token with the right the operation needs; a missing right is 403 with an
    /// empty body, as the service answered in recorded traffic (§1.6).
    private func authorize(_ request: ServedRequest, hub: EmulatorConfiguration.Hub, route: Route, query: QueryString)
        throws
    {
        let right = route.right(method: request.method.rawValue, hasFilter: query.has("$filter"))
        // The emulator's own host:port is a valid audience host too: clients sign the URL they call.
        let host = (request.authority ?? "").lowercased()
        let verifier = SASVerifier(
            policies: hub.policies, acceptedHosts: [namespaceHost, host], clockSkew: configuration.clockSkew)
        do {
            _ = try verifier.verify(
                authorization: request.headers[.authorization], path: request.path, right: right,
                now: Int64(now().timeIntervalSince1970))
        } catch {
            if case .missingRight = error.kind { throw EmulatorError(403, "") }
            throw EmulatorError(error.status, error.detail)
        }
    }

    /// Applies the configured faults; true when the connection was dropped (the response is discarded).
    private func injectFault(_ operation: FaultRule.Operation, request: ServedRequest) async throws -> Bool {
        for rule in configuration.faults where rule.matches(operation) && Double.random(in: 0..<1) < rule.rate {
            switch rule.effect {
            case .status(let status, let retryAfter):
                throw EmulatorError(status, "Injected fault \(status).", retryAfter: retryAfter)
            case .dropConnection:
                request.dropConnection()
                return true
            }
        }
        return false
    }

    private func baseURL(_ request: ServedRequest) -> String {
        let host = request.authority ?? "\(configuration.namespace).servicebus.windows.net"
        return "\(scheme)://\(host)"
    }

    /// The NH error body (§9) with TrackingId and timestamp; empty for 403 missing-claim answers.
    private func errorResponse(_ error: EmulatorError, trackingId: String) -> ServedResponse {
        var headers = HeaderFields()
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        guard !error.detail.isEmpty || error.status != 403 else {
            return ServedResponse(status: HTTPStatus(error.status), headers: headers)
        }
        headers[.contentType] = "application/xml; charset=utf-8"
        let body = NHErrorBody.render(
            status: error.status, detail: error.detail, trackingId: trackingId,
            timestamp: Self.errorTimestamp(now()))
        return ServedResponse(status: HTTPStatus(error.status), headers: headers, text: body)
    }

    /// `M/d/yyyy h:mm:ss tt` in UTC, as NH error details carry it.
    static func errorTimestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let hour = parts.hour ?? 0
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return
            "\(parts.month ?? 1)/\(parts.day ?? 1)/\(parts.year ?? 1970) \(twelve):\(String(format: "%02d:%02d", parts.minute ?? 0, parts.second ?? 0)) \(hour < 12 ? "AM" : "PM")"
    }
}

/// One NH request, routed.
struct Call {
    let request: ServedRequest
    let hub: String
    let route: Route
    let query: QueryString
    let apiVersion: String
    /// `http://host:port` (or `https://`) the client called, for Location headers.
    let base: String

    /// `base/hub/path?api-version=…` for Location headers and entry ids.
    func url(_ path: String, extraQuery: String = "") -> String {
        "\(base)/\(hub)/\(path)?api-version=\(apiVersion)\(extraQuery)"
    }

    /// `base/hub/path` followed by the request's query as the client sent it: how reads name what they list.
    func urlAsSent(_ path: String) -> String {
        "\(base)/\(hub)/\(path)" + (request.query.map { "?" + $0 } ?? "")
    }
}

extension HeaderName {
    static let trackingId: HeaderName = "TrackingId"
    static let correlationId: HeaderName = "x-ms-correlation-request-id"
    static let poweredBy: HeaderName = "X-Powered-By"
    static let notificationFormat: HeaderName = "ServiceBusNotification-Format"
    static let notificationTags: HeaderName = "ServiceBusNotification-Tags"
    static let deviceHandle: HeaderName = "ServiceBusNotification-DeviceHandle"
    static let scheduleTime: HeaderName = "ServiceBusNotification-ScheduleTime"
    static let continuationToken: HeaderName = "x-ms-continuationtoken"
}
