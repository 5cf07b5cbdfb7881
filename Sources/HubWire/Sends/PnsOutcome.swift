/// What an outcome name in NH's per-message telemetry (`<Outcome><Name>…`) means on a platform, and what an operator
/// does about it. One table, read by `notification show`, the run report, device pruning and the docs, so a name is
/// classified the same everywhere.
///
/// Names and meanings follow the REST reference's outcome table ("Get notification message telemetry") and the Azure
/// Monitor metrics (`outgoing.<platform>.<outcome>`); where they disagree by platform, the platform row wins.
public struct PnsOutcome: Sendable, Equatable {
    /// What the outcome says about the device and the send.
    public enum Kind: String, Sendable, CaseIterable {
        /// The PNS accepted the notification for the device.
        case delivered
        /// The device's handle is dead (expired, unregistered, or never valid): remove the device.
        case deadChannel = "dead-channel"
        /// The hub's PNS credentials or app identity are wrong: fix the hub, not the devices.
        case configuration
        /// The payload was refused (format or size): fix the template or body.
        case payload
        /// A passing failure (throttling, the PNS unreachable or busy): a later send may reach the device.
        case transient
        /// Nothing was sent to the device, and nothing is wrong with it (no target, a skipped duplicate).
        case notSent = "not-sent"
        /// NH does not say.
        case unknown
    }

    /// The outcome name as NH writes it, e.g. `ExpiredChannel`.
    public let name: String
    /// Its kind.
    public let kind: Kind
    /// What it means, for people.
    public let meaning: String
    /// Platforms where the name means something else, with what it means there.
    public let exceptions: [PushPlatform: (kind: Kind, meaning: String)]

    /// The kind of `name` on `platform`; an unknown name is `.unknown`. Names compare case-insensitively, as the .NET
    /// SDK's outcome collection does.
    public static func kind(of name: String, on platform: PushPlatform?) -> Kind {
        guard let outcome = named(name) else { return .unknown }
        if let platform, let exception = outcome.exceptions[platform] { return exception.kind }
        return outcome.kind
    }

    /// The table row for `name`, if NH documents it.
    public static func named(_ name: String) -> PnsOutcome? {
        let lowered = name.lowercased()
        return all.first { $0.name.lowercased() == lowered }
    }

    public static func == (lhs: PnsOutcome, rhs: PnsOutcome) -> Bool {
        lhs.name == rhs.name && lhs.kind == rhs.kind && lhs.meaning == rhs.meaning
            && lhs.exceptions.mapValues(\.kind) == rhs.exceptions.mapValues(\.kind)
    }

    init(
        _ name: String, _ kind: Kind, _ meaning: String, exceptions: [PushPlatform: (kind: Kind, meaning: String)] = [:]
    ) {
        self.name = name
        self.kind = kind
        self.meaning = meaning
        self.exceptions = exceptions
    }

    /// Every documented outcome, in the order the docs list them.
    public static let all: [PnsOutcome] = [
        PnsOutcome("Success", .delivered, "the PNS accepted the notification for the device"),
        PnsOutcome(
            "ExpiredChannel", .deadChannel,
            "the PNS says the handle expired: the app was uninstalled or the token replaced (APNs 410, FCM NotRegistered, WNS 410)"
        ),
        PnsOutcome(
            "BadChannel", .deadChannel,
            "the PNS does not know the handle (APNs BadDeviceToken, FCM v1 UNREGISTERED or NOT_FOUND, WNS/MPNS 404)"),
        PnsOutcome(
            "WrongToken", .deadChannel, "the PNS did not recognise the handle as a valid one",
            exceptions: [
                .wns: (.configuration, "the token is valid but for another app; check the hub's WNS credentials")
            ]),
        PnsOutcome(
            "WrongChannel", .configuration,
            "the handle belongs to another app (FCM InvalidPackageName): check the app and the hub's credentials"),
        PnsOutcome(
            "InvalidCredentials", .configuration, "the PNS refused the hub's credentials: update them in the hub"),
        PnsOutcome(
            "InvalidToken", .configuration, "WNS refused the hub's access token (401): check the hub's WNS credentials"),
        PnsOutcome(
            "InvalidNotificationFormat", .payload,
            "the PNS refused the payload's format (FCM invalid TTL or data key, WNS 400)"),
        PnsOutcome("InvalidNotificationSize", .payload, "the payload is larger than the PNS allows"),
        PnsOutcome("Throttled", .transient, "the PNS throttled the hub; later sends get through"),
        PnsOutcome("ChannelThrottled", .transient, "the PNS throttled this device's channel"),
        PnsOutcome("PnsThrottled", .transient, "the PNS throttled the hub"),
        PnsOutcome(
            "ChannelDisconnected", .transient, "the device was not connected to the PNS (MPNS 412, WNS disconnected)"),
        PnsOutcome("Dropped", .transient, "the PNS dropped the notification (device offline, queue full)"),
        PnsOutcome("PnsUnreachable", .transient, "NH could not reach the PNS"),
        PnsOutcome(
            "PnsUnavailable", .transient, "the PNS was not available",
            exceptions: [
                .gcm: (
                    .configuration,
                    "legacy FCM was retired on 20 June 2024, so it never will be: register the device as fcmv1"
                )
            ]),
        PnsOutcome("PnsServerError", .transient, "the PNS failed with an error of its own"),
        PnsOutcome("PnsInterfaceError", .transient, "NH and the PNS failed to agree on the protocol"),
        PnsOutcome(
            "AbandonedNotificationMessages", .transient, "NH gave up on the send before it reached the PNS (a timeout)"),
        PnsOutcome("NoTargets", .notSent, "nothing matched the audience"),
        PnsOutcome(
            "Skipped", .notSent, "a duplicate registration of the same handle was skipped, so the device got it once"),
        PnsOutcome("UnknownError", .unknown, "NH did not say what happened"),
    ]
}
