import Foundation
import HubWire
import PipelineCore
import Tracing

/// What a hub request's span carries, as OpenTelemetry's HTTP conventions name it, with NH's TrackingId as
/// `azure.service.request.id` (what Azure support asks for), the notification id a send was given or a telemetry
/// read asked about, and the outcome. The URL goes without its query and redacted as logs are; the Authorization
/// header and the body are never read.
package enum HubRequestSpan {
    /// NH's resources, as the first path segment after the hub names them.
    static let resources: Set<String> = [
        "installations", "registrations", "registrationIDs", "messages", "schedulednotifications", "tags", "jobs",
    ]

    /// `NH POST messages` style names: the method and the resource the path addresses (`installations`,
    /// `registrations`, `messages`, `messages/$batch`, …), without ids or handles, so spans group. Found by name,
    /// so a hub behind a proxy's path prefix names the same.
    package static func name(_ request: HubRequest) -> String {
        let afterScheme = request.url.range(of: "://").map { request.url[$0.upperBound...] } ?? request.url[...]
        let parts = Array(afterScheme.prefix { $0 != "?" }.split(separator: "/").dropFirst())
        guard let index = parts.firstIndex(where: { resources.contains(String($0)) }) else {
            return "NH \(request.method.rawValue)"
        }
        var resource = String(parts[index])
        if index + 1 < parts.count, parts[index + 1] == "$batch" { resource += "/$batch" }
        return "NH \(request.method.rawValue) \(resource)"
    }

    /// True when a tracer that records is installed (the edge installs one when tracing is asked for): without one, a
    /// request skips its span and the work of its attributes.
    package static var isRecording: Bool { !(InstrumentationSystem.tracer is NoOpTracer) }

    /// Sets the request's attributes on `span`, and an error status when it was refused or got no answer.
    package static func describe(
        _ request: HubRequest, _ result: Result<TransportResult, TransportError>, on span: any Span
    ) {
        span.attributes["http.request.method"] = request.method.rawValue
        // Without the query: it can hold a device handle (`$filter=ChannelUri eq '…'`), which no span keeps.
        span.attributes["url.full"] = SecretRedaction.redact(String(request.url.prefix { $0 != "?" }))
        switch result {
        case .success(let result):
            let response = result.response
            span.attributes["http.response.status_code"] = response.status
            span.attributes["azure.service.request.id"] = response.header("TrackingId") ?? result.trackingId
            span.attributes["pushline.attempts"] = result.attempts
            if let id = notificationId(request, response) { span.attributes["nh.notification.id"] = id }
            span.attributes["pushline.outcome"] = outcome(request, response)
            if response.status >= 400 {
                span.setStatus(SpanStatus(code: .error, message: "the hub answered \(response.status)"))
            }
        case .failure(let error):
            span.attributes["azure.service.request.id"] = error.trackingId
            span.attributes["pushline.attempts"] = error.attempts
            span.attributes["pushline.outcome"] = "no answer"
            span.setStatus(SpanStatus(code: .error, message: SecretRedaction.redact(error.message)))
        }
    }

    /// A send's id from `Location`; a telemetry read's from its path (`…/messages/{id}?…`).
    private static func notificationId(_ request: HubRequest, _ response: HubResponse) -> String? {
        if let location = response.header("Location"), request.method == .post, request.url.contains("/messages") {
            return NotificationLocation.notificationId(fromLocation: location)
        }
        guard request.method == .get, let path = request.url.split(separator: "?").first,
            let range = path.range(of: "/messages/")
        else { return nil }
        let id = path[range.upperBound...]
        return id.isEmpty || id.contains("/") ? nil : String(id)
    }

    /// `accepted`, `refused 403`, or for a telemetry read the notification's state (`Completed`, `Processing`, …).
    private static func outcome(_ request: HubRequest, _ response: HubResponse) -> String {
        guard (200..<300).contains(response.status) else { return "refused \(response.status)" }
        if request.method == .get, request.url.contains("/messages/"),
            let details = try? NotificationDetails(parsing: response.bodyText)
        {
            return details.state.rawValue
        }
        return "accepted"
    }
}
