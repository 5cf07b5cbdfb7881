/// Where a request is sent: the scheme, host and port a connection is made to. Requests to one origin share its
/// keep-alive connections, however their URLs spell it (`https://H` and `https://h:443` are one origin).
struct HubOrigin: Hashable, Sendable {
    /// HTTPS rather than plain HTTP.
    let tls: Bool
    /// The host name or IP address in lower case, without the brackets of an IPv6 literal.
    let host: String
    let port: Int
    /// The `Host` header: the host as the URL wrote it, and the port when it is not the scheme's default. Not part of
    /// the origin's identity.
    let authority: String

    static func == (lhs: HubOrigin, rhs: HubOrigin) -> Bool {
        lhs.tls == rhs.tls && lhs.port == rhs.port && lhs.host == rhs.host
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(tls)
        hasher.combine(host)
        hasher.combine(port)
    }

    /// Splits an absolute `http` or `https` URL into its origin and request target (`/path?query`); nil when it is
    /// not one, or names a user (hub URLs never do: the credentials go in the Authorization header).
    ///
    /// Every request's URL passes through here, so it scans UTF-8 bytes (the delimiters are ASCII) rather than
    /// Characters.
    static func split(_ url: String) -> (origin: HubOrigin, target: String)? {
        let bytes = url.utf8
        let tls: Bool
        let start: String.Index
        if let after = afterScheme(bytes, "https://") {
            (tls, start) = (true, after)
        } else if let after = afterScheme(bytes, "http://") {
            (tls, start) = (false, after)
        } else {
            return nil
        }
        let end = bytes[start...].firstIndex { $0 == slash || $0 == question || $0 == numberSign } ?? bytes.endIndex
        let authority = url[start..<end]
        guard !authority.isEmpty, !authority.utf8.contains(atSign) else { return nil }
        let targetEnd = bytes[end...].firstIndex(of: numberSign) ?? bytes.endIndex
        let target = url[end..<targetEnd]
        let path = target.utf8.first == slash ? String(target) : "/" + target
        guard let (host, port) = hostAndPort(authority, defaultPort: tls ? 443 : 80) else { return nil }
        return (HubOrigin(tls: tls, host: host, port: port, authority: String(authority)), path)
    }

    /// The index just past `scheme` when `bytes` begins with it in any case (schemes are case-insensitive).
    private static func afterScheme(_ bytes: String.UTF8View, _ scheme: StaticString) -> String.Index? {
        var index = bytes.startIndex
        for expected in UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount) {
            guard index < bytes.endIndex else { return nil }
            let byte = bytes[index]
            let isLetter = expected >= UInt8(ascii: "a") && expected <= UInt8(ascii: "z")
            guard byte == expected || (isLetter && byte == expected - 32) else { return nil }
            index = bytes.index(after: index)
        }
        return index
    }

    private static func hostAndPort(_ authority: Substring, defaultPort: Int) -> (String, Int)? {
        let bytes = authority.utf8
        var host = authority
        var portText: Substring?
        if bytes.first == UInt8(ascii: "[") {
            // An IPv6 literal: [::1] or [::1]:8080.
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = authority[bytes.index(after: bytes.startIndex)..<close]
            let after = authority[bytes.index(after: close)...]
            if !after.isEmpty {
                guard after.utf8.first == colon else { return nil }
                portText = after.dropFirst()
            }
        } else if let separator = bytes.lastIndex(of: colon) {
            host = authority[..<separator]
            portText = authority[bytes.index(after: separator)...]
        }
        guard !host.isEmpty else { return nil }
        // Host names are case-insensitive; most are written in lower case already.
        let name =
            host.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } ? host.lowercased() : String(host)
        guard let portText else { return (name, defaultPort) }
        guard let port = Int(portText), (1...65_535).contains(port) else { return nil }
        return (name, port)
    }
}

private let slash = UInt8(ascii: "/")
private let question = UInt8(ascii: "?")
private let numberSign = UInt8(ascii: "#")
private let atSign = UInt8(ascii: "@")
private let colon = UInt8(ascii: ":")
