import HubWire

/// Why a device did not get a notification: the outcome name telemetry counts it under, and the text a test send
/// reports for it (the service's wording where one is on record).
struct Refusal: Sendable, Equatable {
    /// The telemetry outcome, e.g. `ExpiredChannel`.
    let outcome: String
    /// The test send's `<Outcome>` text.
    let text: String
    /// True when the PNS refused the channel itself (the installation's `pushChannelExpired` turns true).
    let channelIsDead: Bool

    /// A rendered payload over the platform's limit.
    static let tooLarge = Refusal(
        outcome: "InvalidNotificationSize", text: "The Notification payload is too large", channelIsDead: false)
    /// Legacy FCM (`gcm`): Google shut the API down on 20 June 2024, so nothing reaches these devices. NH documents no
    /// outcome name for it; the emulator counts `PnsUnavailable`.
    static let legacyFCMRetired = Refusal(
        outcome: "PnsUnavailable",
        text:
            "The Push Notification System is not available: legacy FCM was retired on 20 June 2024; register the device as fcmv1",
        channelIsDead: false)

    /// A channel a config rule marks dead.
    static func dead(_ rule: DeadChannelRule, on platform: PushPlatform) -> Refusal {
        switch rule.reason {
        case .expired:
            Refusal(
                outcome: rule.outcome(on: platform),
                text: "The Push Notification System handle for the registration is no longer valid",
                channelIsDead: true)
        case .invalid:
            Refusal(
                outcome: rule.outcome(on: platform),
                text: "The Push Notification System handle for the registration is invalid",
                channelIsDead: true)
        }
    }
}

extension EmulatorConfiguration {
    /// What the PNS says to a device, when it refuses it.
    func refusal(_ platform: PushPlatform, _ handle: String) -> Refusal? {
        if platform == .gcm { return .legacyFCMRetired }
        guard let rule = deadChannels.first(where: { $0.matches(platform: platform, handle: handle) })
        else { return nil }
        return .dead(rule, on: platform)
    }
}
