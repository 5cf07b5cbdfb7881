import Foundation

/// Removes credentials from text that is about to be shown, such as a source line under a diagnostic.
///
/// A pipeline line may hold a connection string or a database URL with its password written inline, and a file
/// named by mistake as a template may be a key file; the snippet must not print any of them.
package enum SecretRedaction {
    /// Markers after which everything up to the next separator is a secret.
    static let markers = ["SharedAccessKey=", "sig=", "password="]

    /// `text` with the value after each marker, and the password of a `scheme://user:password@host` URL, replaced by
    /// `<redacted>`.
    package static func redact(_ text: String) -> String {
        let text = redactURLPasswords(text)
        guard markers.contains(where: { text.range(of: $0, options: .caseInsensitive) != nil }) else { return text }
        var result = text
        for marker in markers {
            var searchStart = result.startIndex
            while let range = result.range(of: marker, options: .caseInsensitive, range: searchStart..<result.endIndex)
            {
                let valueEnd = result[range.upperBound...].firstIndex { ";&\"' \t,}".contains($0) } ?? result.endIndex
                result.replaceSubrange(range.upperBound..<valueEnd, with: "<redacted>")
                searchStart = result.index(range.upperBound, offsetBy: "<redacted>".count)
            }
        }
        return result
    }

    /// `postgres://reader:s3cret@db/app` → `postgres://reader:<redacted>@db/app`.
    static func redactURLPasswords(_ text: String) -> String {
        guard text.contains("://") else { return text }
        // Up to the last `@` before the host's path or query: a password may hold `@`, quotes or anything but `/`.
        return text.replacingOccurrences(
            of: #"(://[^:/@\s]+:)[^/?\s]*@"#, with: "$1<redacted>@", options: .regularExpression)
    }
}
