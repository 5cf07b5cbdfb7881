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
        let id = notificationId ?? notificationIDs.notification(at: currentDate, sequence: nextSequence())
        // One clock reading for the whole fan-out: formatting a date per device dominated large sends.
        let enqueued = timestamp()
        let notification = prepared.notification
        let platform: PushPlatform? = if case .native(let native) = notification.format { native } else { nil }
        let targets = (indexes[hub] ?? TargetIndex()).matching(prepared.expression, platform: platform).prefix(limit)
        // Per-device results are only reported by test sends (at most 10 devices).
        // A test send names each device by its registration, an installation's own registration ids included.
        let owned = hubs[hub]?.installationRegistrations ?? [:]
        var outcome = OutcomeTally(keepsResults: limit <= NHLimits.maxTestSendDevices) { target in
            switch target.key.owner {
            case .registration(let id): return id
            case .installation(let id):
                let record = owned[id]
                return (target.key.template.map { record?.templateIDs[$0] } ?? record?.nativeID) ?? id
            }
        }
        let send = LoggedDelivery.Send(notificationId: id, hub: hub, time: enqueued, headers: notification.headers)
        // Straight into the log: a thousand-device send copied every delivery once more through an array.
        records.reserve(targets.count)
        for target in targets {
            // Optional chaining borrows the compiled template; binding it with `if let` copied it per device.
            let payload = prepared.properties.flatMap { target.template?.render($0) } ?? notification.body
            // Only the size can be wrong: compiling checked the template is well-formed, and values are
            // escaped where they land, so every render is. (Linting each payload was most of a large
            // fan-out's time.)
            if let limit = target.platform.payloadLimit, payload.utf8.count > limit {
                outcome.failed(target, Refusal.tooLarge)
                continue
            }
            if let refusal = configuration.refusal(target.platform, target.pushChannel) {
                outcome.failed(target, refusal)
                if refusal.channelIsDead, case .installation(let installation) = target.key.owner {
                    hubs[hub]?.expiredChannels.insert(installation)
                    markDirty()
                }
                continue
            }
            outcome.succeeded(target)
            records.deliver(
                send, to: .target(target), payload: payload,
                renderedHeaders: prepared.properties.flatMap { target.renderedHeaders($0) })
        }
        records.finish(
            NotificationRecord(
                id: id, final: targets.isEmpty ? .noTargetFound : .completed, enqueuedAt: currentDate,
                enqueueTime: enqueued,
                body: notification.body, tags: notification.tags, outcomes: outcome.counts, pnsErrors: outcome.pnsErrors
            ))
        return SendResult(notificationId: id, outcome: outcome.notificationOutcome)
    }

    /// Delivers a native payload straight to device handles (direct and direct-batch sends).
    func directSend(_ notification: OutgoingNotification, platform: PushPlatform, handles: [String], hub: String)
        -> String
    {
        let id = notificationIDs.notification(at: currentDate, sequence: nextSequence())
        let enqueued = timestamp()
        var counts: [String: Int] = [:]
        var pnsErrors: [PnsError] = []
        let send = LoggedDelivery.Send(notificationId: id, hub: hub, time: enqueued, headers: notification.headers)
        for handle in handles {
            if let limit = platform.payloadLimit, notification.body.utf8.count > limit {
                counts[Refusal.tooLarge.outcome, default: 0] += 1
                continue
            }
            if let refusal = configuration.refusal(platform, handle) {
                counts[refusal.outcome, default: 0] += 1
                if pnsErrors.count < OutcomeTally.pnsErrorLimit {
                    pnsErrors.append(
                        PnsError(platform: platform.rawValue, pushChannel: handle, outcome: refusal.outcome))
                }
                continue
            }
            counts["Success", default: 0] += 1
            records.deliver(send, to: .handle(platform, handle), payload: notification.body)
        }
        records.finish(
            NotificationRecord(
                id: id, final: handles.isEmpty ? .noTargetFound : .completed, enqueuedAt: currentDate,
                enqueueTime: enqueued,
                body: notification.body, tags: nil, outcomes: [platform: counts], pnsErrors: pnsErrors))
        return id
    }

    /// Telemetry for a notification id (with the devices the PNS refused).
    func notificationRecord(id: String) -> NotificationRecord? { records.record(id: id) }
}

/// Counts outcomes per platform and collects per-device results for test sends.
struct OutcomeTally {
    /// Whether per-device results are collected (test sends); counts always are.
    let keepsResults: Bool
    // Successes apart: counting them under a "Success" string key hashed a string per device.
    private var successes: [PushPlatform: Int] = [:]
    private var failures: [PushPlatform: [String: Int]] = [:]
    private var results: [NotificationOutcome.Result] = []
    /// Every device the PNS refused (not those NH refused itself, such as an oversized payload), the first
    /// `pnsErrorLimit` of them: telemetry is kept for many notifications, so each keeps a bounded list.
    private(set) var pnsErrors: [PnsError] = []
    static let pnsErrorLimit = 10_000
    /// The registration id a test send reports for a target (an installation's own registration ids included).
    let registrationId: (Target) -> String
    private var success = 0
    private var failure = 0

    init(
        keepsResults: Bool = true,
        registrationId: @escaping (Target) -> String = { target in
            switch target.key.owner {
            case .installation(let id), .registration(let id): id
            }
        }
    ) {
        self.keepsResults = keepsResults
        self.registrationId = registrationId
    }

    /// Outcome name → count, per platform, as telemetry reports them.
    var counts: [PushPlatform: [String: Int]] {
        var counts = failures
        for (platform, count) in successes { counts[platform, default: [:]]["Success"] = count }
        return counts
    }

    /// A device reached.
    mutating func succeeded(_ target: Target) {
        successes[target.platform, default: 0] += 1
        success += 1
        if keepsResults { keep(target, "The Notification was successfully sent to the Push Notification System") }
    }

    /// A device not reached, and why.
    mutating func failed(_ target: Target, _ refusal: Refusal) {
        failures[target.platform, default: [:]][refusal.outcome, default: 0] += 1
        failure += 1
        if keepsResults { keep(target, refusal.text) }
        if refusal.channelIsDead || refusal == .legacyFCMRetired, pnsErrors.count < Self.pnsErrorLimit {
            var error = PnsError(
                platform: target.platform.rawValue, pushChannel: target.pushChannel, outcome: refusal.outcome)
            switch target.key.owner {
            case .installation(let id): error.installationId = id
            case .registration(let id): error.registrationId = id
            }
            pnsErrors.append(error)
        }
    }

    private mutating func keep(_ target: Target, _ outcome: String) {
        results.append(
            NotificationOutcome.Result(
                platform: target.platform.notificationFormat, pnsHandle: target.pushChannel,
                registrationId: registrationId(target), outcome: outcome))
    }

    var notificationOutcome: NotificationOutcome {
        NotificationOutcome(success: success, failure: failure, results: results)
    }
}
