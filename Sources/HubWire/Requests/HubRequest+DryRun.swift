extension HubRequest {
    /// Lines for a dry run: `"POST <url>"`, then `"Authorization: <redactedAuthorization>"` when one is passed,
    /// then each header as `"Name: value"`, then — only when there is a body — a blank line and the body as
    /// UTF-8 text, one element per line (LF or CRLF ends a line), or `"<N bytes>"` when the body is
    /// not UTF-8.
    ///
    /// An `Authorization` header that somehow got into `headers` is never shown: the only Authorization line is
    /// the one the caller passes, already redacted.
    public func dryRunLines(redactedAuthorization: String?) -> [String] {
        var lines = ["\(method.rawValue) \(url)"]
        if let redactedAuthorization { lines.append("Authorization: \(redactedAuthorization)") }
        for header in headers where !header.hasName("Authorization") {
            lines.append("\(header.name): \(header.value)")
        }
        guard !body.isEmpty else { return lines }
        lines.append("")
        guard let text = String(validating: body, as: UTF8.self) else {
            lines.append("<\(body.count) bytes>")
            return lines
        }
        // "\r\n" is one Character in Swift, so it is a separator of its own.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lines.append(String(line))
        }
        return lines
    }
}
