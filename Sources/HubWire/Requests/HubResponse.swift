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

extension HubResponse {
    /// True for NH's answer to a Standard-only feature (telemetry, scheduled sends) on a Free or Basic hub: 403 with
    /// "Request rejected because this feature is not enabled for your SKU. Upgrade to Standard." (an empty 403 is a key
    /// without the right instead).
    public var refusesForTier: Bool {
        guard status == 403 else { return false }
        let detail = (NHErrorBody(parsing: bodyText)?.message ?? "").lowercased()
        return detail.contains("sku") || detail.contains("standard")
    }
}
