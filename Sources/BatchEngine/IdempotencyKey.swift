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
    ///
    /// The text digested is written as bytes into one buffer (a batch keys every row's request; building it as a
    /// `String` cost more than the digest). It is the same text, byte for byte, that keys have always digested: a key
    /// must never change, or a journal would stop recognising what it sent.
    public static func of(_ request: HubRequest, hub: HubSession, includingSchedule: Bool = false) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(256 + request.url.utf8.count + request.body.count)
        text += "pushline-key-v1\n".utf8
        text += identity(of: hub).utf8
        text.append(newline)
        text += request.method.rawValue.utf8
        text.append(space)
        let base = hub.endpoint.hubBaseURL
        text += request.url.hasPrefix(base) ? request.url.utf8.dropFirst(base.utf8.count) : request.url.utf8[...]
        text.append(newline)
        // Each name lower-cased once, then sorted as before (the key of a given request must never change).
        let headers = request.headers.map { (name: $0.name.lowercased(), value: $0.value) }.sorted { $0.name < $1.name }
        for header in headers where includingSchedule || !ignoredHeaders.contains(header.name) {
            text += header.name.utf8
            text += ": ".utf8
            text += header.value.utf8
            text.append(newline)
        }
        text.append(newline)
        // As text: a body that is not valid UTF-8 is digested as decoding repairs it, as it always was.
        text += String(decoding: request.body, as: UTF8.self).utf8
        return "request:" + ContentDigest.hex(bytes: text, digits: 32)
    }

    private static let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")

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
