/// One entry of an installation's `templates` object (nh-rest-api.md §3).
public struct InstallationTemplate: Codable, Sendable, Equatable {
    /// The body template (JSON or XML text with `$(…)` expressions).
    public var body: String
    /// Headers sent with the rendered body (WNS/MPNS, and APNs `apns-*`); omitted when nil.
    public var headers: [String: String]?
    /// APNs expiry: a date or a template expression; omitted when nil.
    public var expiry: String?
    /// Tags of this template; the service adds the template name here (emulators do the same).
    public var tags: [String]?

    /// Creates a template.
    public init(body: String, headers: [String: String]? = nil, expiry: String? = nil, tags: [String]? = nil) {
        self.body = body
        self.headers = headers
        self.expiry = expiry
        self.tags = tags
    }
}
