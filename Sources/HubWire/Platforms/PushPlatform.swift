/// A push notification service NH can deliver to.
public enum PushPlatform: String, Sendable, CaseIterable, Equatable {
    /// Apple Push Notification service.
    case apns
    /// Firebase Cloud Messaging HTTP v1.
    case fcmv1
    /// Legacy FCM (GCM) API.
    case gcm
    /// Windows Push Notification Services.
    case wns
    /// Microsoft Push Notification Service (Windows Phone).
    case mpns
    /// Amazon Device Messaging.
    case adm
    /// Baidu Cloud Push.
    case baidu
    /// Web Push (browser).
    case browser
    /// Xiaomi push.
    case xiaomi

    /// Parses a platform name ignoring case and surrounding whitespace: .NET writes `fcmV1`, apps `fcmv1`.
    public init?(caseInsensitive text: String) {
        self.init(rawValue: text.trimmingWhitespace().lowercased())
    }

    /// Largest payload in bytes, where known (nh-rest-api.md §8); nil when no limit is documented.
    public var payloadLimit: Int? {
        switch self {
        case .apns, .fcmv1, .gcm: 4096
        case .wns: 5120
        case .mpns, .adm, .baidu, .browser, .xiaomi: nil
        }
    }

    /// The `ServiceBusNotification-Format` header value for native sends.
    public var notificationFormat: String {
        switch self {
        case .apns: "apple"
        case .wns: "windows"
        case .mpns: "windowsphone"
        case .fcmv1, .gcm, .adm, .baidu, .browser, .xiaomi: rawValue
        }
    }

    /// Whether native payloads are XML rather than JSON (WNS raw payloads aside).
    public var usesXML: Bool {
        self == .wns || self == .mpns
    }

    /// Name for people, e.g. in reports.
    public var displayName: String {
        switch self {
        case .apns: "APNs"
        case .fcmv1: "FCM v1"
        case .gcm: "FCM legacy (GCM)"
        case .wns: "WNS"
        case .mpns: "MPNS"
        case .adm: "Amazon ADM"
        case .baidu: "Baidu"
        case .browser: "Web Push"
        case .xiaomi: "Xiaomi"
        }
    }
}
