/// The audience rule: a token covers a request when its decoded `sr` names an accepted host and a path prefix
/// of the request path (nh-rest-api.md §1.2, §12 fact 3).
struct AudienceMatch: Sendable {
    /// Lower-cased `host[:port]` from `sr`; nil when `sr` has no host at all.
    let authority: String?
    /// Decoded, lower-cased, non-empty path segments of `sr`.
    let segments: [String]

    init(audience: String) {
        // Scheme ignored: http, https and sb are all seen in working clients' tokens.
        var rest = audience.firstRange(of: "://").map { audience[$0.upperBound...] } ?? audience[...]
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = Self.normalisedAuthority(String(rest[..<slash]))
        self.authority = authority.isEmpty ? nil : authority
        self.segments = Self.segments(of: rest[slash...])
    }

    /// Whether the token covers `path` on one of `acceptedHosts` (already normalised).
    func covers(path: String, acceptedHosts: Set<String>) -> Bool {
        guard let authority, Self.hostMatches(authority, acceptedHosts) else { return false }
        let pathOnly = path.firstIndex(where: { $0 == "?" || $0 == "#" }).map { path[..<$0] } ?? path[...]
        let requested = Self.segments(of: pathOnly)
        // Whole segments: a token for /myhub must not open /myhub2.
        return requested.count >= segments.count && zip(requested, segments).allSatisfy { $0 == $1 }
    }

    /// Lower-cased, with the scheme-default ports dropped so `host:443` and `host` compare equal.
    static func normalisedAuthority(_ authority: String) -> String {
        let lowered = authority.lowercased()
        let (host, port) = URLParts.split(lowered)
        return port == "443" || port == "80" ? host : lowered
    }

    /// Exact match, or a port-less token host against an accepted `host:port`: the .NET SDK strips the port
    /// from `sr`, so its tokens for an emulator on a port name the bare host.
    private static func hostMatches(_ authority: String, _ accepted: Set<String>) -> Bool {
        if accepted.contains(authority) { return true }
        guard URLParts.split(authority).port == nil else { return false }
        return accepted.contains { URLParts.split($0).host == authority }
    }

    /// Non-empty segments, each percent-decoded (so `%20` and a space agree) and lower-cased.
    private static func segments(of path: Substring) -> [String] {
        path.split(separator: "/").map { segment in
            (PercentCoding.decode(String(segment), plusAsSpace: false) ?? String(segment)).lowercased()
        }
    }
}
