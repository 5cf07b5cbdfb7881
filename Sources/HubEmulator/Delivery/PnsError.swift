/// One device the PNS refused for a notification, as the emulator's stand-in for NH's `PnsErrorDetailsUri` blob
/// (`GET /_emulator/pns-errors/{notificationId}`) lists it.
package struct PnsError: Sendable, Equatable, Codable {
    /// `apns`, `fcmv1`, …
    package var platform: String
    /// The device handle.
    package var pushChannel: String
    /// The installation, when the device is one.
    package var installationId: String?
    /// The registration, when the device is one.
    package var registrationId: String?
    /// The outcome NH counts, e.g. `ExpiredChannel`.
    package var outcome: String

    enum CodingKeys: String, CodingKey {
        case platform, pushChannel, installationId, registrationId, outcome
    }

    // Absent ids are written as null, as the deliveries log writes them.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(platform, forKey: .platform)
        try container.encode(pushChannel, forKey: .pushChannel)
        try container.encode(installationId, forKey: .installationId)
        try container.encode(registrationId, forKey: .registrationId)
        try container.encode(outcome, forKey: .outcome)
    }
}
