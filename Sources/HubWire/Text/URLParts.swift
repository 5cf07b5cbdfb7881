/// Minimal URL splitting for the few shapes HubWire handles; avoids Foundation's URL, whose parsing
/// of odd inputs differs between platforms.
enum URLParts {
    /// `host[:port]` of a URL: the text between `scheme://` (optional) and the first `/`, `?` or `#`.
    static func authority(ofURL url: String) -> String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let end = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        return String(afterScheme[..<end])
    }

    /// The host of `host[:port]`, keeping IPv6 brackets.
    static func hostWithoutPort(_ authority: String) -> String {
        split(authority).host
    }

    /// Splits `host[:port]` (IPv6 in brackets) into host and optional port text.
    static func split(_ authority: String) -> (host: String, port: String?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return (authority, nil) }
            let host = String(authority[...close])
            let rest = authority[authority.index(after: close)...]
            return rest.hasPrefix(":") ? (host, String(rest.dropFirst())) : (host, nil)
        }
        guard let colon = authority.lastIndex(of: ":") else { return (authority, nil) }
        return (String(authority[..<colon]), String(authority[authority.index(after: colon)...]))
    }
}
