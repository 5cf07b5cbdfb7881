/// One push the emulator "delivered" to a device, as the side channel reports it.
public struct Delivery: Sendable, Equatable, Codable {
    /// Increasing sequence number; `GET /_emulator/deliveries?since=ID` returns later ones.
    public var id: Int
    /// The notification (send) it belongs to.
    public var notificationId: String
    /// The hub.
    public var hub: String
    /// `apns`, `fcmv1`, …
    public var platform: String
    /// The device handle.
    public var pushChannel: String
    /// The installation it reached, if it was an installation.
    public var installationId: String?
    /// The registration it reached, if it was a registration.
    public var registrationId: String?
    /// The template rendered, if it was a template send.
    public var template: String?
    /// The payload the device receives (rendered body).
    public var payload: String
    /// Platform headers that go with it.
    public var headers: [String: String]
    /// When it was delivered (ISO 8601, UTC, milliseconds).
    public var time: String

    enum CodingKeys: String, CodingKey {
        case id, notificationId, hub, platform, pushChannel, installationId, registrationId, template, payload, headers, time
    }

    // Absent ids and template are written as null, not left out: consumers test for them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(notificationId, forKey: .notificationId)
        try container.encode(hub, forKey: .hub)
        try container.encode(platform, forKey: .platform)
        try container.encode(pushChannel, forKey: .pushChannel)
        try container.encode(installationId, forKey: .installationId)
        try container.encode(registrationId, forKey: .registrationId)
        try container.encode(template, forKey: .template)
        try container.encode(payload, forKey: .payload)
        try container.encode(headers, forKey: .headers)
        try container.encode(time, forKey: .time)
    }
}
