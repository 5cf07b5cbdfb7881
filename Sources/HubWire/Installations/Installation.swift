/// An NH installation as exchanged by `PUT`/`GET installations/{id}` (nh-rest-api.md §3).
///
/// JSON keys are the property names; nil properties are left out. Decoding ignores keys it does not model
/// (`lastActiveOn`, `lastUpdate`, `secondaryTiles`, …) but refuses wrong types with a `DecodingError` whose
/// coding path names the field.
public struct Installation: Codable, Sendable, Equatable {
    /// Any string; must match the id in the URL path.
    public var installationId: String
    /// Optional user id, targetable with the tag `$UserId:{value}`.
    public var userId: String?
    /// The platform as sent (`apns`, `fcmv1`, `fcmV1`, …); compare with `PushPlatform(caseInsensitive:)`.
    public var platform: String
    /// The PNS handle, or a browser subscription.
    public var pushChannel: PushChannel
    /// Read-only on the service; `false` in normal GET responses.
    public var pushChannelExpired: Bool?
    /// Read-only on the service, e.g. `9999-12-31T23:59:59.9999999Z`.
    public var expirationTime: String?
    /// Tags; omitted from JSON when nil.
    public var tags: [String]?
    /// Values for `$(…)` expressions that are fixed per installation.
    public var pushVariables: [String: String]?
    /// Templates by name.
    public var templates: [String: InstallationTemplate]?

    /// Creates an installation; read-only and rarely used fields start out nil.
    public init(
        installationId: String, platform: String, pushChannel: PushChannel, userId: String? = nil,
        tags: [String]? = nil, templates: [String: InstallationTemplate]? = nil
    ) {
        self.installationId = installationId
        self.userId = userId
        self.platform = platform
        self.pushChannel = pushChannel
        self.tags = tags
        self.templates = templates
    }
}
