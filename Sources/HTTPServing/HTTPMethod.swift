/// A request method, compared by its exact name (`GET`, `PUT`, …).
///
/// Handlers switch over `.get`, `.put` and so on; the server's own method type stays inside this target so
/// the emulator and the service never import the HTTP library themselves.
public struct HTTPMethod: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method name as sent.
    public let rawValue: String

    /// A method by name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A method by literal name.
    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }

    /// `GET`.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`.
    public static let post: HTTPMethod = "POST"
    /// `PUT`.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`.
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`.
    public static let options: HTTPMethod = "OPTIONS"
}
