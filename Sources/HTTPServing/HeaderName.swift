/// A header field name, compared without case (RFC 9110 §5.1).
public struct HeaderName: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as written.
    public let rawName: String
    /// The name lower-cased, for comparison.
    let canonical: String

    /// A header name as written.
    public init(_ rawName: String) {
        self.rawName = rawName
        canonical = rawName.lowercased()
    }

    /// A header name by literal.
    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { rawName }

    public static func == (lhs: HeaderName, rhs: HeaderName) -> Bool { lhs.canonical == rhs.canonical }
    public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }

    /// `Authorization`.
    public static let authorization: HeaderName = "Authorization"
    /// `Content-Type`.
    public static let contentType: HeaderName = "Content-Type"
    /// `Content-Length`.
    public static let contentLength: HeaderName = "Content-Length"
    /// `Content-Location`.
    public static let contentLocation: HeaderName = "Content-Location"
    /// `Location`.
    public static let location: HeaderName = "Location"
    /// `ETag`.
    public static let eTag: HeaderName = "ETag"
    /// `If-Match`.
    public static let ifMatch: HeaderName = "If-Match"
    /// `Retry-After`.
    public static let retryAfter: HeaderName = "Retry-After"
    /// `WWW-Authenticate`.
    public static let wwwAuthenticate: HeaderName = "WWW-Authenticate"
    /// `Host`.
    public static let host: HeaderName = "Host"
    /// `Date`.
    public static let date: HeaderName = "Date"
    /// `Allow`.
    public static let allow: HeaderName = "Allow"

    /// Fields that carry credentials; never printed.
    static let credentials: Set<HeaderName> = [
        authorization, "Proxy-Authorization", "Cookie", "Set-Cookie", "apikey", "X-Api-Key",
    ]
}
