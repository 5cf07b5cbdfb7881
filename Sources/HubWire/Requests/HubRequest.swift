/// An NH REST request, fully formed except for the Authorization header (the transport adds the SAS token).
///
/// Build them with `HubRequests`; a request never carries a secret, so it can be logged, compared and
/// shown in a dry run as is.
public struct HubRequest: Sendable, Equatable {
    /// The HTTP method.
    public enum Method: String, Sendable {
        /// Reads.
        case get = "GET"
        /// Create-or-replace of installations and registrations.
        case put = "PUT"
        /// Sends and registration id creation.
        case post = "POST"
        /// JSON-Patch of installations.
        case patch = "PATCH"
        /// Deletes and cancellations.
        case delete = "DELETE"
    }

    /// The HTTP method.
    public var method: Method
    /// Absolute, always with `?api-version=…` first, then other query items and the `&direct` / `&test`
    /// presence flags as .NET writes them.
    public var url: String
    /// Content-Type, ServiceBusNotification-*, apns-*/X-WNS-*, If-Match …; never Authorization.
    public var headers: [HubHeader]
    /// The body bytes; empty for reads and deletes.
    public var body: [UInt8]
    /// True when sending the request twice has the same effect as once (PUT, GET, DELETE, PATCH of installations,
    /// POST registrationIDs). Sends (POST messages, $batch, schedulednotifications) are false: a timeout after
    /// writing is ambiguous and must not be retried blindly.
    public var isIdempotent: Bool
    /// Short description for messages and reports, e.g. "send to 'follows_RedSox'", "PUT installation 'seed-1'".
    public var summary: String
    /// The Authorization right the operation needs (Listen / Send / Manage), so a 403 can say which right the
    /// key lacks.
    public var right: AccessRight

    /// Creates a request; prefer the builders in `HubRequests`.
    public init(
        method: Method, url: String, headers: [HubHeader], body: [UInt8], isIdempotent: Bool,
        summary: String, right: AccessRight
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.isIdempotent = isIdempotent
        self.summary = summary
        self.right = right
    }

    /// The value of the first header named `name`, ignoring case.
    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }
}
