import Foundation
import HubWire

/// A notification's telemetry for people (`text`) and programs (`json`).
struct NotificationView {
    let details: NotificationDetails
    let hub: String

    func text() -> String {
        var lines = [
            "notification \(details.notificationId) on hub '\(hub)': \(details.state.rawValue)"
                + (details.state.isFinal ? "" : " (not final yet)")
        ]
        let times = [("enqueued", details.enqueueTime), ("started", details.startTime), ("ended", details.endTime)]
            .compactMap { label, value in value.map { "\(label) \($0)" } }
        if !times.isEmpty { lines.append("  " + times.joined(separator: ", ")) }
        let platforms = details.platformOutcomes
        let width = platforms.map { name($0).count }.max() ?? 0
        for platform in platforms {
            // Deliveries first, then the rest from the most to the fewest devices.
            let ordered = platform.counts.sorted { lhs, rhs in
                let (a, b) = (
                    PnsOutcome.kind(of: lhs.name, on: platform.platform) == .delivered,
                    PnsOutcome.kind(of: rhs.name, on: platform.platform) == .delivered
                )
                return a != b ? a : lhs.count != rhs.count ? lhs.count > rhs.count : lhs.name < rhs.name
            }
            let counts = ordered.map { count -> String in
                let kind = PnsOutcome.kind(of: count.name, on: platform.platform)
                return kind == .delivered
                    ? "\(count.count) \(count.name)" : "\(count.count) \(count.name) (\(kind.rawValue))"
            }
            lines.append(
                "  " + name(platform).padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + counts.joined(separator: ", "))
        }
        if details.state.isFinal, platforms.isEmpty {
            lines.append(
                details.state == .noTargetFound ? "  no device matched the audience" : "  NH reported no outcome counts"
            )
        }
        let totals = details.totals
        let undelivered = totals.filter { $0.key != .delivered }.values.reduce(0, +)
        if !platforms.isEmpty {
            let dead = totals[.deadChannel] ?? 0
            lines.append(
                "  in all: \(totals[.delivered] ?? 0) delivered, \(undelivered) not"
                    + (dead > 0 ? " (\(dead) to dead channels)" : ""))
        }
        if let link = details.redactedPnsErrorDetailsUri { lines.append("  PNS error details: \(link)") }
        return lines.joined(separator: "\n")
    }

    func json() -> String {
        var object: [String: Any] = [
            "notificationId": details.notificationId, "hub": hub, "state": details.state.rawValue,
            "final": details.state.isFinal,
        ]
        object["enqueueTime"] = details.enqueueTime
        object["startTime"] = details.startTime
        object["endTime"] = details.endTime
        object["pnsErrorDetailsUri"] = details.redactedPnsErrorDetailsUri
        var platforms: [String: Any] = [:]
        for platform in details.platformOutcomes {
            platforms[platform.platform?.rawValue ?? platform.prefix] = Dictionary(
                platform.counts.map { ($0.name, $0.count) }, uniquingKeysWith: +)
        }
        object["platforms"] = platforms
        object["totals"] = Dictionary(uniqueKeysWithValues: details.totals.map { ($0.key.rawValue, $0.value) })
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private func name(_ platform: NotificationDetails.PlatformOutcomes) -> String {
        platform.platform?.displayName ?? platform.prefix
    }
}
