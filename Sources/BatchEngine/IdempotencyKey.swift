import HubClient
import HubWire
import PipelineCore

/// Default idempotency keys: the same key is the same notification (or registration) on the same hub.
///
/// A key is a SHA-256 over what the hub would act on, never over a secret: the hub's namespace and name
/// (not the endpoint override, so a rehearsal port or a proxy does not change it), the method, the path
/// and query, the headers that shape the notification, and the body. The schedule-time header counts only
/// when the step schedules for a fixed time: a delay (`in 2h`) re-run minutes later is still the same
/// notification, but the same content at 09:00 and at 18:00 is two.
package enum IdempotencyKey {
    /// A declared key as the journal keeps it: `daily-digest/step2:digest-u0203`. A declared key names a
    /// notification within its pipeline and step: two pipelines, or two steps of one (an iOS and an Android send
    /// over the same rows), that declare the same key are not taken for each other, and the pipeline's name (not
    /// its file's directory) keeps it the same key wherever the file is read from. `pushline runs find
    /// digest-u0203` finds it without the prefix. (A default key is the request's digest on its hub, the same
    /// notification whichever pipeline sends it.)
    package static func scoped(_ key: String, pipeline: String, step: Int) -> String {
        "\(pipeline)/step\(step):\(key)"
    }

    /// Headers that do not make a different notification.
    static let ignoredHeaders: Set<String> = ["servicebusnotification-scheduletime"]

    /// The key of `request` sent to `hub`: `request:` and 32 hex digits.
    ///
    /// The text digested is written as bytes into one buffer (a batch keys every row's request; building it as a
    /// `String` cost more than the digest). It is the same text, byte for byte, that keys have always digested: a key
    /// must never change, or a journal would stop recognising what it sent.
    package static func of(_ request: HubRequest, hub: HubSession, includingSchedule: Bool = false) -> String {
        var maker = Maker(hub: hub, includingSchedule: includingSchedule)
        return maker.key(of: request)
    }

    /// Keys of many requests to one hub, as a batch makes them (one per row): what every key of the hub shares is written
    /// once, and the headers' names are lower-cased and sorted once for each run of requests that carry the same names
    /// (a batch's rows all do; only values such as each row's tag expression differ).
    ///
    /// The text digested is written as bytes into one buffer (building it as a `String` cost more than the digest). It
    /// is the same text, byte for byte, that keys have always digested: a key must never change, or a journal would stop
    /// recognising what it sent.
    package struct Maker {
        /// `pushline-key-v1`, the hub's identity and a newline.
        private let head: [UInt8]
        private let base: String
        private let includingSchedule: Bool
        /// The last request's header names, and the headers digested: their positions in sorted order, each with its
        /// lower-cased name and `: `.
        private var names: [String] = []
        private var digested: [(position: Int, name: [UInt8])] = []
        private var text: [UInt8] = []

        package init(hub: HubSession, includingSchedule: Bool) {
            head = Array("pushline-key-v1\n\(identity(of: hub))\n".utf8)
            base = hub.endpoint.hubBaseURL
            self.includingSchedule = includingSchedule
        }

        /// The key of `request`: `request:` and 32 hex digits.
        package mutating func key(of request: HubRequest) -> String {
            let headers = request.headers
            if !headers.elementsEqual(names, by: { $0.name == $1 }) {
                names = headers.map(\.name)
                // Sorted by lower-cased name exactly as keys always sorted the headers, so equal names keep their order.
                let sorted = headers.enumerated().map { (position: $0.offset, name: $0.element.name.lowercased()) }
                    .sorted { $0.name < $1.name }
                digested = sorted.filter { includingSchedule || !ignoredHeaders.contains($0.name) }.map {
                    ($0.position, Array(($0.name + ": ").utf8))
                }
            }
            text.removeAll(keepingCapacity: true)
            text += head
            text += request.method.rawValue.utf8
            text.append(space)
            text += request.url.hasPrefix(base) ? request.url.utf8.dropFirst(base.utf8.count) : request.url.utf8[...]
            text.append(newline)
            for (position, name) in digested {
                text += name
                text += headers[position].value.utf8
                text.append(newline)
            }
            text.append(newline)
            // As text: a body that is not valid UTF-8 is digested as decoding repairs it, as it always was (ASCII, which
            // nearly every body is, needs no decoding).
            if request.body.allSatisfy({ $0 < 0x80 }) {
                text += request.body
            } else {
                text += String(decoding: request.body, as: UTF8.self).utf8
            }
            return "request:" + ContentDigest.hex(bytes: text, digits: 32)
        }
    }

    private static let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")

    /// The key of an item described by `parts` (a device's operation and content) on `hub`, under `kind`.
    package static func of(_ kind: String, _ parts: [String], hub: HubSession) -> String {
        let text =
            "pushline-key-v1\n\(identity(of: hub))\n" + parts.map { "\($0.utf8.count):\($0)" }.joined(separator: "\n")
        return "\(kind):" + ContentDigest.hex(text).prefix(32)
    }

    /// The hub as keys know it: its namespace endpoint and hub name.
    static func identity(of hub: HubSession) -> String {
        "\(hub.hub.connection?.endpoint ?? hub.endpoint.hubBaseURL)|\(hub.endpoint.hub)"
    }
}
