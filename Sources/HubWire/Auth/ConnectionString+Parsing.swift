extension ConnectionString {
    /// The keys an NH connection string may hold.
    enum Key: CaseIterable, Sendable {
        case endpoint, sharedAccessKeyName, sharedAccessKey, entityPath

        /// Canonical spelling, used in messages and `description`.
        var name: String {
            switch self {
            case .endpoint: "Endpoint"
            case .sharedAccessKeyName: "SharedAccessKeyName"
            case .sharedAccessKey: "SharedAccessKey"
            case .entityPath: "EntityPath"
            }
        }

        /// An example part, used in hints.
        var example: String {
            switch self {
            case .endpoint: "add Endpoint=sb://<namespace>.servicebus.windows.net/"
            case .sharedAccessKeyName: "add SharedAccessKeyName=<policy name>, e.g. DefaultFullSharedAccessSignature"
            case .sharedAccessKey: "add SharedAccessKey=<key> of the same access policy"
            case .entityPath: "add EntityPath=<hub name> or drop the part"
            }
        }

        init?(caseInsensitive name: String) {
            let lowered = name.lowercased()
            guard let key = Key.allCases.first(where: { $0.name.lowercased() == lowered }) else { return nil }
            self = key
        }
    }

    static func keyValues(in text: String) throws(ConnectionStringError) -> [Key: String] {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }
        guard !parts.isEmpty else { throw .empty }
        var values: [Key: String] = [:]
        for (offset, part) in parts.enumerated() {
            let number = offset + 1
            guard let equals = part.firstIndex(of: "=") else { throw .notKeyValue(part: number) }
            let name = part[..<equals].trimmingWhitespace()
            let value = part[part.index(after: equals)...].trimmingWhitespace()
            guard !name.isEmpty else { throw .emptyKeyName(part: number) }
            guard let key = Key(caseInsensitive: name) else {
                throw .unknownKey(name, part: number, suggestion: suggestion(for: name))
            }
            guard values[key] == nil else { throw .duplicate(key) }
            guard !value.isEmpty else { throw .emptyValue(key) }
            values[key] = value
        }
        return values
    }

    static func baseURL(forEndpoint endpoint: String) throws(ConnectionStringError) -> String {
        guard let separator = endpoint.firstRange(of: "://") else {
            throw .unsupportedScheme(endpoint: endpoint, scheme: nil)
        }
        let scheme = endpoint[..<separator.lowerBound].lowercased()
        let rest = endpoint[separator.upperBound...]
        let restScheme: String
        switch scheme {
        case "sb", "https": restScheme = "https://"
        case "http": restScheme = "http://"
        default: throw .unsupportedScheme(endpoint: endpoint, scheme: String(endpoint[..<separator.lowerBound]))
        }
        guard let first = rest.first, first != "/" else { throw .missingHost(endpoint: endpoint) }
        let url = restScheme + rest
        return url.hasSuffix("/") ? url : url + "/"
    }

    /// The known key closest to a misspelt one, if it is close enough to be a likely typo.
    static func suggestion(for name: String) -> String? {
        let lowered = Array(name.lowercased())
        let ranked = Key.allCases
            .map { ($0.name, editDistance(lowered, Array($0.name.lowercased()))) }
            .min { $0.1 < $1.1 }
        guard let ranked, ranked.1 <= 3 else { return nil }
        return ranked.0
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace or newlines.
    func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }),
            let end = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[start...end])
    }
}
