/// One push the emulator "delivered" to a device, as the side channel reports it.
package struct Delivery: Sendable, Equatable, Codable {
    /// Increasing sequence number; `GET /_emulator/deliveries?since=ID` returns later ones.
    package var id: Int
    /// The notification (send) it belongs to.
    package var notificationId: String
    /// The hub.
    package var hub: String
    /// `apns`, `fcmv1`, …
    package var platform: String
    /// The device handle.
    package var pushChannel: String
    /// The installation it reached, if it was an installation.
    package var installationId: String?
    /// The registration it reached, if it was a registration.
    package var registrationId: String?
    /// The template rendered, if it was a template send.
    package var template: String?
    /// The payload the device receives (rendered body).
    package var payload: String
    /// Platform headers that go with it.
    package var headers: [String: String]
    /// When it was delivered (ISO 8601, UTC, milliseconds).
    package var time: String

    enum CodingKeys: String, CodingKey {
        case id, notificationId, hub, platform, pushChannel, installationId, registrationId, template, payload, headers,
            time
    }

    // Absent ids and template are written as null, not left out: consumers test for them.
    package func encode(to encoder: any Encoder) throws {
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
