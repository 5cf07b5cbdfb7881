import HubWire
import PipelineCore

/// Default idempotency keys: the same key is the same notification (or registration) on the same hub.
///
/// A key is a SHA-256 over what the hub would act on, never over a secret: the hub's namespace and name
/// (not the endpoint override, so a rehearsal port or a proxy does not change it), the method, the path
/// and query, the headers that shape the notification, and the body. The schedule-time header counts only
/// when the step schedules for a fixed time: a delay (`in 2h`) re-run minutes later is still the same
/// notification, but the same content at 09:00 and at 18:00 is two.
public enum IdempotencyKey {
    /// Headers that do not make a different notification.
    static let ignoredHeaders: Set<String> = ["servicebusnotification-scheduletime"]

    /// The key of `request` sent to `hub`: `request:` and 32 hex digits.
    public static func of(_ request: HubRequest, hub: HubSession, includingSchedule: Bool = false) -> String {
        var text = "pushline-key-v1\n\(identity(of: hub))\n\(request.method.rawValue) "
        text += request.url.hasPrefix(hub.endpoint.hubBaseURL) ? String(request.url.dropFirst(hub.endpoint.hubBaseURL.count)) : request.url
        text += "\n"
        // Each name lower-cased once, then sorted as before (the key of a given request must never change).
        let headers = request.headers.map { (name: $0.name.lowercased(), value: $0.value) }.sorted { $0.name < $1.name }
        for header in headers where includingSchedule || !ignoredHeaders.contains(header.name) {
            text += header.name + ": " + header.value + "\n"
        }
        text += "\n" + String(decoding: request.body, as: UTF8.self)
        return "request:" + ContentDigest.hex(text).prefix(32)
    }

    /// The key of an item described by `parts` (a device's operation and content) on `hub`, under `kind`.
    public static func of(_ kind: String, _ parts: [String], hub: HubSession) -> String {
        let text = "pushline-key-v1\n\(identity(of: hub))\n" + parts.map { "\($0.utf8.count):\($0)" }.joined(separator: "\n")
        return "\(kind):" + ContentDigest.hex(text).prefix(32)
    }

    /// The hub as keys know it: its namespace endpoint and hub name.
    static func identity(of hub: HubSession) -> String {
        "\(hub.hub.connection?.endpoint ?? hub.endpoint.hubBaseURL)|\(hub.endpoint.hub)"
    }
}
