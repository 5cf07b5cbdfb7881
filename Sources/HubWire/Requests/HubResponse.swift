/// A response as the transport saw it.
public struct HubResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// Response headers in the order received.
    public var headers: [HubHeader]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [HubHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header named `name`, ignoring case; nil when absent.
    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }

    /// The body decoded as UTF-8 (invalid bytes become U+FFFD).
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// True for 2xx statuses.
    public var isSuccess: Bool {
        (200...299).contains(status)
    }
}
