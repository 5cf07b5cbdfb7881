/// A parsed Notification Hubs connection string (nh-rest-api.md §1.1).
///
/// The hub name is not part of an NH connection string; `EntityPath` is accepted as an optional default hub.
public struct ConnectionString: Sendable, Equatable {
    /// The Endpoint value as written, trimmed.
    public let endpoint: String
    /// REST base URL: `sb://` becomes `https://`, `http://` and `https://` are kept; always ends with `/`.
    public let baseURL: String
    /// The shared access policy name (`SharedAccessKeyName`).
    public let keyName: String
    /// The shared access key text; secret, never printed.
    public let key: String
    /// Optional default hub name (`EntityPath`).
    public let entityPath: String?

    /// Parses `Key=Value` parts separated by `;`.
    ///
    /// Empty parts are dropped, each part is split on its first `=` (keys end in `=` padding), both sides are
    /// trimmed, and key names are compared case-insensitively.
    public init(parsing text: String) throws(ConnectionStringError) {
        let values = try Self.keyValues(in: text)
        guard let endpoint = values[.endpoint] else { throw .missing(.endpoint) }
        guard let keyName = values[.sharedAccessKeyName] else { throw .missing(.sharedAccessKeyName) }
        guard NHNames.isPolicyName(keyName) else { throw ConnectionStringError.invalidKeyName }
        guard let key = values[.sharedAccessKey] else { throw .missing(.sharedAccessKey) }
        guard key.utf8.count <= Self.maxKeyLength, key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        else {
            throw .implausibleKey(length: key.utf8.count)
        }
        self.endpoint = endpoint
        self.baseURL = try Self.baseURL(forEndpoint: endpoint)
        self.keyName = keyName
        self.key = key
        self.entityPath = values[.entityPath]
    }

    /// The longest SharedAccessKey accepted. NH's keys are 256 bits in base64, 44 characters; a key far longer (a
    /// wrong file or variable) would only be refused by the hub, request after request, so it is refused here.
    public static let maxKeyLength = 256

    /// `host[:port]` of `baseURL`, as written.
    public var host: String {
        URLParts.authority(ofURL: baseURL)
    }

    /// The namespace name: the first DNS label when the host ends with `.servicebus.windows.net`.
    public var namespace: String? {
        let hostOnly = URLParts.hostWithoutPort(host)
        let suffix = ".servicebus.windows.net"
        guard hostOnly.lowercased().hasSuffix(suffix), hostOnly.count > suffix.count else { return nil }
        return String(hostOnly.prefix(hostOnly.count - suffix.count).split(separator: ".").first ?? "")
    }

    /// A signer for this connection's policy.
    public var signer: SASSigner {
        SASSigner(keyName: keyName, key: key)
    }
}
