import HubWire

/// A stored registration: its description plus what the service adds.
struct StoredRegistration: Sendable, Codable, Equatable {
    var id: String
    var etag: Int
    /// The description as XML (DataContract order), so snapshots survive model changes.
    var descriptionXML: String
    var published: String
    var updated: String
}

/// A send waiting for its time.
struct ScheduledSend: Sendable, Codable, Equatable {
    var id: String
    /// Epoch seconds when it is due.
    var due: Double
    var notification: OutgoingNotification
}

/// The persistent state of one hub: what `--state FILE` keeps across restarts.
struct HubState: Sendable, Codable, Equatable {
    var installations: [String: Installation] = [:]
    var registrations: [String: StoredRegistration] = [:]
    var issuedRegistrationIDs: Set<String> = []
    var retiredRegistrationIDs: Set<String> = []
    var scheduled: [String: ScheduledSend] = [:]
    /// The registrations behind each installation, by installation id.
    var installationRegistrations: [String: InstallationRegistrations] = [:]
    /// Installations whose channel the PNS refused since they were last written (`pushChannelExpired: true`).
    var expiredChannels: Set<String> = []

    init() {}

    /// Reads state files written before installations' registrations were kept (those get ids when restored).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        installations = try container.decode([String: Installation].self, forKey: .installations)
        registrations = try container.decode([String: StoredRegistration].self, forKey: .registrations)
        issuedRegistrationIDs = try container.decode(Set<String>.self, forKey: .issuedRegistrationIDs)
        retiredRegistrationIDs = try container.decode(Set<String>.self, forKey: .retiredRegistrationIDs)
        scheduled = try container.decode([String: ScheduledSend].self, forKey: .scheduled)
        installationRegistrations =
            try container.decodeIfPresent(
                [String: InstallationRegistrations].self,
                forKey: .installationRegistrations) ?? [:]
        expiredChannels = try container.decodeIfPresent(Set<String>.self, forKey: .expiredChannels) ?? []
    }
}

/// Everything `--state FILE` holds.
struct EmulatorSnapshot: Sendable, Codable, Equatable {
    var format = 1
    var hubs: [String: HubState]
    var sequence: Int
}
