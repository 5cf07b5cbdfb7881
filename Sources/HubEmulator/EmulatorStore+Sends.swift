import Foundation
import HubExpressions
import HubWire

extension EmulatorStore {
    /// The result of a send: its id and, for test sends, the per-device outcome.
    struct SendResult: Sendable {
        let notificationId: String
        let outcome: NotificationOutcome
    }

    /// Fans a send out to every matching target, renders templates, records deliveries and telemetry.
    /// `limit` caps the devices reached (test sends reach at most 10).
    func send(_ prepared: PreparedSend, hub: String, limit: Int = .max, notificationId: String? = nil) -> SendResult {
        let id = notificationId ?? newNotificationID()
        // One clock reading for the whole fan-out: formatting a date per device dominated large sends.
        let enqueued = timestamp()
        let notification = prepared.notification
        let platform: PushPlatform? = if case .native(let native) = notification.format { native } else { nil }
        let targets = (indexes[hub] ?? TargetIndex()).matching(prepared.expression, platform: platform).prefix(limit)
        // Per-device results are only reported by test sends (at most 10 devices).
        var outcome = OutcomeTally(keepsResults: limit <= NHLimits.maxTestSendDevices)
        var delivered: [Delivery] = []
        for target in targets {
            let payload: String
            let headers: [String: String]
            if let template = target.template, let properties = prepared.properties {
                payload = template.render(properties)
                headers = target.headers
                // Only the size can be wrong: compiling checked the template is well-formed, and values
                // are escaped where they land, so every render is. (Linting each payload was most of a
                // large fan-out's time.)
                if let limit = target.platform.payloadLimit, payload.utf8.count > limit {
                    outcome.add(target, "PayloadTooLarge")
                    continue
                }
            } else {
                payload = notification.body
                headers = notification.headers
                if let limit = target.platform.payloadLimit, payload.utf8.count > limit {
                    outcome.add(target, "PayloadTooLarge")
                    continue
                }
            }
            outcome.add(target, "Success")
            delivered.append(delivery(to: target, notificationId: id, hub: hub, payload: payload, headers: headers, time: enqueued))
        }
        record(delivered)
        telemetry[id] = NotificationRecord(
            id: id, state: targets.isEmpty ? .noTargetFound : .completed, enqueueTime: enqueued, endTime: timestamp(),
            body: notification.body, tags: notification.tags, outcomes: outcome.counts)
        return SendResult(notificationId: id, outcome: outcome.notificationOutcome)
    }

    /// Delivers a native payload straight to device handles (direct and direct-batch sends).
    func directSend(_ notification: OutgoingNotification, platform: PushPlatform, handles: [String], hub: String) -> String {
        let id = newNotificationID()
        let enqueued = timestamp()
        var counts: [String: Int] = [:]
        var delivered: [Delivery] = []
        for handle in handles {
            if let limit = platform.payloadLimit, notification.body.utf8.count > limit {
                counts["PayloadTooLarge", default: 0] += 1
                continue
            }
            counts["Success", default: 0] += 1
            delivered.append(Delivery(
                id: nextSequence(), notificationId: id, hub: hub, platform: platform.rawValue, pushChannel: handle,
                installationId: nil, registrationId: nil, template: nil, payload: notification.body,
                headers: notification.headers, time: enqueued))
        }
        record(delivered)
        telemetry[id] = NotificationRecord(
            id: id, state: handles.isEmpty ? .noTargetFound : .completed, enqueueTime: enqueued, endTime: timestamp(),
            body: notification.body, tags: nil, outcomes: [platform: counts])
        return id
    }

    /// Telemetry for a notification id.
    func notificationRecord(id: String) -> NotificationRecord? { telemetry[id] }

    /// An id shaped like the service's: 32 hex digits, a time stamp and a sequence number.
    func newNotificationID() -> String {
        let hex = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        return "\(hex)-\(nextSequence())"
    }

    private func delivery(to target: Target, notificationId: String, hub: String, payload: String, headers: [String: String],
                          time: String) -> Delivery {
        var installationId: String?
        var registrationId: String?
        switch target.key.owner {
        case .installation(let id): installationId = id
        case .registration(let id): registrationId = id
        }
        return Delivery(
            id: nextSequence(), notificationId: notificationId, hub: hub, platform: target.platform.rawValue,
            pushChannel: target.pushChannel, installationId: installationId, registrationId: registrationId,
            template: target.templateName, payload: payload, headers: headers, time: time)
    }
}

/// Counts outcomes per platform and collects per-device results for test sends.
struct OutcomeTally {
    /// Whether per-device results are collected (test sends); counts always are.
    let keepsResults: Bool
    private(set) var counts: [PushPlatform: [String: Int]] = [:]
    private var results: [NotificationOutcome.Result] = []
    private var success = 0
    private var failure = 0

    init(keepsResults: Bool = true) {
        self.keepsResults = keepsResults
    }

    mutating func add(_ target: Target, _ outcome: String) {
        counts[target.platform, default: [:]][outcome, default: 0] += 1
        if outcome == "Success" { success += 1 } else { failure += 1 }
        guard keepsResults else { return }
        let registration: String
        switch target.key.owner {
        case .installation(let id): registration = id
        case .registration(let id): registration = id
        }
        results.append(NotificationOutcome.Result(
            platform: target.platform.notificationFormat, pnsHandle: target.pushChannel, registrationId: registration,
            outcome: outcome == "Success" ? "The Notification was successfully sent to the Push Notification System" : outcome))
    }

    var notificationOutcome: NotificationOutcome {
        NotificationOutcome(success: success, failure: failure, results: results)
    }
}
