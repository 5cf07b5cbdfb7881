import HubWire

/// A send as received: what to deliver and to whom, before fan-out.
struct OutgoingNotification: Sendable, Codable, Equatable {
    /// `template`, or a platform for native sends.
    enum Format: Sendable, Codable, Equatable {
        case template
        case native(PushPlatform)

        /// The `ServiceBusNotification-Format` value.
        var name: String {
            switch self {
            case .template: return "template"
            case .native(let platform): return platform.notificationFormat
            }
        }

        /// Parses a `ServiceBusNotification-Format` value (case-insensitive).
        init?(name: String) {
            let lowered = name.lowercased()
            if lowered == "template" {
                self = .template
            } else if let platform = PushPlatform.allCases.first(where: { $0.notificationFormat == lowered }) {
                self = .native(platform)
            } else {
                return nil
            }
        }

        init(from decoder: any Decoder) throws {
            let name = try decoder.singleValueContainer().decode(String.self)
            guard let format = Format(name: name) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "unknown format \(name)"))
            }
            self = format
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(name)
        }
    }

    var format: Format
    /// The tag expression as sent; nil for a broadcast.
    var tags: String?
    /// The request body as text (template properties JSON, or the native payload).
    var body: String
    /// Platform headers from the request (`apns-*`, `X-WNS-*`, …).
    var headers: [String: String]
}
