/// Builds the URLs a client talks to and signs for.
public enum HubAddress {
    /// REST base URL of a hub: `(endpointOverride ?? connection.baseURL) + hub + "/"`.
    ///
    /// Each `/`-separated segment of `hub` is percent-encoded (hub names may contain `/`); leading and
    /// trailing `/` in `hub` are dropped so the result never holds `//`.
    public static func hubBaseURL(connection: ConnectionString, hub: String, endpointOverride: String?) -> String {
        base(connection: connection, endpointOverride: endpointOverride) + encodedHubPath(hub) + "/"
    }

    /// Seed-tutorial SAS resource: `(endpointOverride ?? connection.baseURL) + hub`, no trailing slash.
    ///
    /// The hub is encoded as in `hubBaseURL`, so the resource is a prefix of every request URL for the hub.
    public static func sasResource(connection: ConnectionString, hub: String, endpointOverride: String?) -> String {
        base(connection: connection, endpointOverride: endpointOverride) + encodedHubPath(hub)
    }

    /// The base with a trailing `/`; an `sb://` override is mapped to `https://` like a connection string endpoint.
    static func base(connection: ConnectionString, endpointOverride: String?) -> String {
        guard let override = endpointOverride?.trimmingWhitespace(), !override.isEmpty else {
            return connection.baseURL
        }
        var url = override
        if url.lowercased().hasPrefix("sb://") { url = "https://" + url.dropFirst(5) }
        return url.hasSuffix("/") ? url : url + "/"
    }

    static func encodedHubPath(_ hub: String) -> String {
        hub.split(separator: "/").map { PercentCoding.encode(String($0), hexCase: .upper) }.joined(separator: "/")
    }
}
