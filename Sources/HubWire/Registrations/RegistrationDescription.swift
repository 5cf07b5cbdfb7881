/// A registration as carried in Atom entries by the registrations API (nh-rest-api.md §4).
///
/// One type covers every `<Kind>RegistrationDescription` and `<Kind>TemplateRegistrationDescription`;
/// fields a kind does not have are ignored when writing XML.
public struct RegistrationDescription: Sendable, Equatable {
    /// The platform part of the element name.
    public enum Kind: String, Sendable, CaseIterable {
        /// `AppleRegistrationDescription`, handle `DeviceToken`.
        case apple = "Apple"
        /// `GcmRegistrationDescription` (FCM legacy), handle `GcmRegistrationId`.
        case gcm = "Gcm"
        /// `FcmV1RegistrationDescription`, handle `FcmV1RegistrationId`.
        case fcmV1 = "FcmV1"
        /// `WindowsRegistrationDescription` (WNS), handle `ChannelUri`.
        case windows = "Windows"
        /// `MpnsRegistrationDescription`, handle `ChannelUri`.
        case mpns = "Mpns"
        /// `AdmRegistrationDescription`, handle `AdmRegistrationId`.
        case adm = "Adm"
        /// `BaiduRegistrationDescription`, handle `BaiduChannelId` (plus `BaiduUserId`).
        case baidu = "Baidu"
        /// `BrowserRegistrationDescription`, handle `Endpoint` (plus `P256DH` and `Auth`).
        case browser = "Browser"

        /// The kind registering for `platform`; nil for platforms without registrations (Xiaomi).
        public init?(platform: PushPlatform) {
            switch platform {
            case .apns: self = .apple
            case .gcm: self = .gcm
            case .fcmv1: self = .fcmV1
            case .wns: self = .windows
            case .mpns: self = .mpns
            case .adm: self = .adm
            case .baidu: self = .baidu
            case .browser: self = .browser
            case .xiaomi: return nil
            }
        }
    }

    /// The platform.
    public var kind: Kind
    /// True for `<Kind>TemplateRegistrationDescription`.
    public var isTemplate: Bool
    /// Assigned by the service; ignored on input.
    public var registrationId: String?
    /// The entity tag as digits, e.g. `1`; ignored on input.
    public var etag: String?
    /// e.g. `9999-12-31T23:59:59.999Z`; ignored on input.
    public var expirationTime: String?
    /// Tags; one comma-separated `<Tags>` element on the wire.
    public var tags: [String]
    /// `PushVariables` as JSON object text.
    public var pushVariables: String?
    /// The PNS handle: the element named by `handleElementName`.
    public var handle: String
    /// Other handle elements that are present: `BaiduUserId`, `P256DH`, `Auth`, `SecondaryTileName`.
    public var secondaryFields: [String: String]
    /// The template body (templates only; written as CDATA).
    public var bodyTemplate: String?
    /// The template name (templates only).
    public var templateName: String?
    /// APNs expiry: a date or expression (Apple templates only; written as `i:nil` when absent).
    public var expiry: String?
    /// APNs priority: `5`, `10` or an expression (Apple templates only).
    public var priority: String?
    /// `ApnsHeaders`, `WnsHeaders` or `MpnsHeaders`, in order (Apple, Windows and Mpns templates).
    public var headers: [RegistrationHeader]

    /// Creates a description; service-assigned and rarely used fields start out nil or empty.
    public init(
        kind: Kind, isTemplate: Bool, handle: String, tags: [String] = [], bodyTemplate: String? = nil,
        templateName: String? = nil, headers: [RegistrationHeader] = []
    ) {
        self.kind = kind
        self.isTemplate = isTemplate
        self.handle = handle
        self.tags = tags
        self.secondaryFields = [:]
        self.bodyTemplate = bodyTemplate
        self.templateName = templateName
        self.headers = headers
    }

    /// The push platform of `kind`.
    public var platform: PushPlatform {
        switch kind {
        case .apple: .apns
        case .gcm: .gcm
        case .fcmV1: .fcmv1
        case .windows: .wns
        case .mpns: .mpns
        case .adm: .adm
        case .baidu: .baidu
        case .browser: .browser
        }
    }

    /// The element holding `handle`, e.g. `DeviceToken`.
    public var handleElementName: String {
        kind.handleElementName
    }

    /// The description element's name, e.g. `AppleTemplateRegistrationDescription`.
    public var elementName: String {
        kind.rawValue + (isTemplate ? "Template" : "") + "RegistrationDescription"
    }
}

extension RegistrationDescription.Kind {
    /// The element holding the handle.
    var handleElementName: String {
        switch self {
        case .apple: "DeviceToken"
        case .gcm: "GcmRegistrationId"
        case .fcmV1: "FcmV1RegistrationId"
        case .windows, .mpns: "ChannelUri"
        case .adm: "AdmRegistrationId"
        case .baidu: "BaiduChannelId"
        case .browser: "Endpoint"
        }
    }

    /// Handle elements in DataContract order, the handle itself included.
    var platformElements: [String] {
        switch self {
        case .apple: ["DeviceToken"]
        case .gcm: ["GcmRegistrationId"]
        case .fcmV1: ["FcmV1RegistrationId"]
        case .windows, .mpns: ["ChannelUri", "SecondaryTileName"]
        case .adm: ["AdmRegistrationId"]
        case .baidu: ["BaiduUserId", "BaiduChannelId"]
        case .browser: ["Endpoint", "P256DH", "Auth"]
        }
    }

    /// Container and item element names of template headers, for the kinds that have them.
    var headerElements: (container: String, item: String)? {
        switch self {
        case .apple: ("ApnsHeaders", "ApnsHeader")
        case .windows: ("WnsHeaders", "WnsHeader")
        case .mpns: ("MpnsHeaders", "MpnsHeader")
        case .gcm, .fcmV1, .adm, .baidu, .browser: nil
        }
    }
}

extension RegistrationDescription {
    /// The installation this registration stands for, from its `$InstallationId:{…}` tag: NH lists one registration per
    /// installation and per installation template among the registrations; nil for a registration of its own.
    public var installationId: String? {
        let prefix = "$InstallationId:{"
        guard let tag = tags.first(where: { $0.hasPrefix(prefix) && $0.hasSuffix("}") }) else { return nil }
        return String(tag.dropFirst(prefix.count).dropLast())
    }
}
