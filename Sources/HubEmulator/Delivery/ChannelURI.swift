import Foundation

/// Channel URIs (WNS, MPNS) in the form NH keeps them: the .NET SDK's recordings put `https://some.url` into an
/// installation and read `https://some.url/` back, in the installation and in its registration.
package enum ChannelURI {
    /// `scheme://host` with the scheme and host lower-cased and an empty path made `/`; the rest (port, path, query,
    /// escapes) as written. Text that is not an absolute `scheme://` URI is returned unchanged (validation is elsewhere).
    package static func normalized(_ text: String) -> String {
        guard let separator = text.range(of: "://") else { return text }
        let scheme = text[..<separator.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return text }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        // The host is lower-cased; user information (before `@`) and the port keep their case.
        let hostStart = authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex
        // A port is digits after the last `:` (an IPv6 literal's colons are followed by `]` or hex letters somewhere).
        let portStart =
            authority[hostStart...].lastIndex(of: ":").flatMap { colon in
                authority[authority.index(after: colon)...].allSatisfy(\.isNumber) ? colon : nil
            } ?? authority.endIndex
        var out =
            scheme.lowercased() + "://" + authority[..<hostStart] + authority[hostStart..<portStart].lowercased()
            + authority[portStart...]
        let tail = rest[authorityEnd...]
        if !tail.hasPrefix("/") { out += "/" }
        return out + tail
    }
}
