/// Where requests go: the hub's REST base URL (from `HubAddress.hubBaseURL`) and the api-version.
///
/// Holds no key: a connection string's secret stays with the signer.
public struct HubEndpoint: Sendable, Equatable {
    /// The hub's REST base URL, e.g. `https://ns.servicebus.windows.net/myhub/`; ends with `/`.
    public let hubBaseURL: String
    /// The hub name as configured (not encoded).
    public let hub: String
    /// The `api-version` query value; `2020-06` is what the current SDKs send.
    public let apiVersion: String

    /// The hub at a connection string's endpoint, or at `endpointOverride` (an emulator) when given.
    public init(connection: ConnectionString, hub: String, endpointOverride: String?, apiVersion: String = "2020-06") {
        self.init(
            hubBaseURL: HubAddress.hubBaseURL(connection: connection, hub: hub, endpointOverride: endpointOverride),
            hub: hub, apiVersion: apiVersion)
    }

    /// A hub at an explicit base URL; a missing trailing `/` is added.
    public init(hubBaseURL: String, hub: String, apiVersion: String = "2020-06") {
        self.hubBaseURL = hubBaseURL.hasSuffix("/") ? hubBaseURL : hubBaseURL + "/"
        self.hub = hub
        self.apiVersion = apiVersion
    }

    /// `hubBaseURL + path + "?api-version=…"`, then `&name=value` for each query item (values form-encoded
    /// unless marked pre-encoded), then `&flag` for each presence flag. `path` must already be encoded.
    func url(_ path: String, query: [QueryItem] = [], flags: [String] = []) -> String {
        var url = hubBaseURL + path + "?api-version=" + PercentCoding.formEncode(apiVersion)
        for item in query {
            url += "&" + item.name + "=" + item.encodedValue
        }
        for flag in flags {
            url += "&" + flag
        }
        return url
    }
}
