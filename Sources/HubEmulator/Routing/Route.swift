import HubWire

/// What a request path under `/{hub}/` asks for.
enum Route: Equatable {
    case installation(id: String)
    case registrationIDs
    case registrations
    case registration(id: String)
    case registrationsByTag(tag: String)
    case messages
    case batch
    case notification(id: String)
    case scheduled
    case scheduledNotification(id: String)

    /// Parses the path after the hub (already stripped of the hub and leading `/`).
    init?(path: Substring) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map {
            QueryString.decode(String($0), plusAsSpace: false)
        }
        let keyword = segments.first?.lowercased()
        switch (keyword, segments.count) {
        case ("installations", 2): self = .installation(id: segments[1])
        case ("registrationids", 1): self = .registrationIDs
        case ("registrations", 1): self = .registrations
        case ("registrations", 2): self = .registration(id: segments[1])
        case ("tags", 3) where segments[2].lowercased() == "registrations": self = .registrationsByTag(tag: segments[1])
        case ("messages", 1): self = .messages
        case ("messages", 2) where segments[1].lowercased() == "$batch": self = .batch
        case ("messages", 2): self = .notification(id: segments[1])
        case ("schedulednotifications", 1): self = .scheduled
        case ("schedulednotifications", 2): self = .scheduledNotification(id: segments[1])
        default: return nil
        }
    }

    /// The fault-injection class of the route.
    var operation: FaultRule.Operation {
        switch self {
        case .installation: return .installation
        case .registrationIDs, .registrations, .registration, .registrationsByTag: return .registration
        case .messages, .batch, .notification, .scheduled, .scheduledNotification: return .send
        }
    }

    /// The right a request needs (§1.5): Listen for device registration, Send for sends,
    /// Manage for reading by tag, listing everything and telemetry.
    func right(method: String, hasFilter: Bool) -> AccessRight {
        switch self {
        case .installation, .registrationIDs, .registration: return .listen
        case .registrations: return method == "GET" && !hasFilter ? .manage : .listen
        case .registrationsByTag, .notification: return .manage
        case .messages, .batch, .scheduled, .scheduledNotification: return .send
        }
    }
}
