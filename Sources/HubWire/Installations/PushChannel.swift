/// An installation's `pushChannel`: the PNS handle as a string, or a Web Push subscription object for `browser`.
public enum PushChannel: Codable, Sendable, Equatable {
    /// APNs device token, FCM registration token, WNS channel URI, ….
    case handle(String)
    /// A browser (Web Push) subscription: `{"endpoint": …, "p256dh": …, "auth": …}`.
    case browser(endpoint: String, p256dh: String, auth: String)

    /// The handle string, or the endpoint of a browser subscription.
    public var handle: String {
        switch self {
        case .handle(let handle): handle
        case .browser(let endpoint, _, _): endpoint
        }
    }

    private enum BrowserKeys: String, CodingKey {
        case endpoint, p256dh, auth
    }

    /// Decodes a string or a `{endpoint, p256dh, auth}` object; anything else is a type mismatch that says so.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer(), let handle = try? container.decode(String.self) {
            self = .handle(handle)
            return
        }
        guard let object = try? decoder.container(keyedBy: BrowserKeys.self) else {
            throw DecodingError.typeMismatch(
                PushChannel.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "pushChannel must be a string (the PNS handle) or, for browser installations, "
                        + "an object with endpoint, p256dh and auth"))
        }
        self = .browser(
            endpoint: try object.decode(String.self, forKey: .endpoint),
            p256dh: try object.decode(String.self, forKey: .p256dh),
            auth: try object.decode(String.self, forKey: .auth))
    }

    /// Encodes the string, or the object with keys in the order endpoint, p256dh, auth.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .handle(let handle):
            var container = encoder.singleValueContainer()
            try container.encode(handle)
        case .browser(let endpoint, let p256dh, let auth):
            var object = encoder.container(keyedBy: BrowserKeys.self)
            try object.encode(endpoint, forKey: .endpoint)
            try object.encode(p256dh, forKey: .p256dh)
            try object.encode(auth, forKey: .auth)
        }
    }
}
