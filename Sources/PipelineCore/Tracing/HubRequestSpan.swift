import HubWire

/// What a hub request's span carries, as OpenTelemetry's HTTP conventions name it, with NH's TrackingId as
/// `azure.service.request.id` (what Azure support asks for), the notification id a send was given or a telemetry
/// read asked about, and the outcome. The URL goes without its query and redacted as logs are; the Authorization
/// header and the body are never read.
package enum HubRequestSpan {
    /// NH's resources, as the first path segment after the hub names them.
    static let resources: Set<String> = ["installations", "registrations", "registrationIDs", "messages", "schedulednotifications", "tags", "jobs"]

    /// `NH POST messages` style names: the method and the resource the path addresses (`installations`,
    /// `registrations`, `messages`, `messages/$batch`, …), without ids or handles, so spans group. Found by name,
    /// so a hub behind a proxy's path prefix names the same.
    package static func name(_ request: HubRequest) -> String {
        let afterScheme = request.url.range(of: "://").map { request.url[$0.upperBound...] } ?? request.url[...]
        let parts = Array(afterScheme.prefix { $0 != "?" }.split(separator: "/").dropFirst())
        guard let index = parts.firstIndex(where: { resources.contains(String($0)) }) else { return "NH \(request.method.rawValue)" }
        var resource = String(parts[index])
        if index + 1 < parts.count, parts[index + 1] == "$batch" { resource += "/$batch" }
        return "NH \(request.method.rawValue) \(resource)"
    }

    package static func describe(_ request: HubRequest, _ result: Result<TransportResult, TransportError>, on span: any TraceSpan) {
        span.set("http.request.method", .string(request.method.rawValue))
        // Without the query: it can hold a device handle (`$filter=ChannelUri eq '…'`), which no span keeps.
        span.set("url.full", .string(SecretRedaction.redact(String(request.url.prefix { $0 != "?" }))))
        switch result {
        case .success(let result):
            let response = result.response
            span.set("http.response.status_code", .int(response.status))
            span.set("azure.service.request.id", .string(response.header("TrackingId") ?? result.trackingId))
            span.set("pushline.attempts", .int(result.attempts))
            if let id = notificationId(request, response) { span.set("nh.notification.id", .string(id)) }
            span.set("pushline.outcome", .string(outcome(request, response)))
            if response.status >= 400 { span.fail("the hub answered \(response.status)") }
        case .failure(let error):
            span.set("azure.service.request.id", .string(error.trackingId))
            span.set("pushline.attempts", .int(error.attempts))
            span.set("pushline.outcome", .string("no answer"))
            span.fail(SecretRedaction.redact(error.message))
        }
    }

    /// A send's id from `Location`; a telemetry read's from its path (`…/messages/{id}?…`).
    private static func notificationId(_ request: HubRequest, _ response: HubResponse) -> String? {
        if let location = response.header("Location"), request.method == .post, request.url.contains("/messages") {
            return NotificationLocation.notificationId(fromLocation: location)
        }
        guard request.method == .get, let path = request.url.split(separator: "?").first,
              let range = path.range(of: "/messages/") else { return nil }
        let id = path[range.upperBound...]
        return id.isEmpty || id.contains("/") ? nil : String(id)
    }

    /// `accepted`, `refused 403`, or for a telemetry read the notification's state (`Completed`, `Processing`, …).
    private static func outcome(_ request: HubRequest, _ response: HubResponse) -> String {
        guard (200..<300).contains(response.status) else { return "refused \(response.status)" }
        if request.method == .get, request.url.contains("/messages/"), let details = try? NotificationDetails(parsing: response.bodyText) {
            return details.state.rawValue
        }
        return "accepted"
    }
}
