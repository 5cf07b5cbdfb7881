/// Turning an NH `Detail` into the text `HubFailure` shows.
enum FailureDetail {
    /// The detail without its `TrackingId:…,TimeStamp:…` tail (`.TrackingId:` or ` TrackingId:`), trimmed, with
    /// any SAS token or `sig=` value replaced by `<redacted>`; nil when nothing is left.
    static func clean(_ detail: String?) -> String? {
        guard var text = detail else { return nil }
        if let tail = text.firstRange(of: ".TrackingId:") ?? text.firstRange(of: "TrackingId:") {
            text = String(text[..<tail.lowerBound])
        }
        text = redactSecrets(text.trimmingWhitespace())
        return text.isEmpty ? nil : text
    }

    /// `Listen`/`Send`/`Manage` from the older 401 text `Manage claim is required for this operation.`.
    static func requiredRight(in lowercasedDetail: String) -> AccessRight? {
        guard lowercasedDetail.contains("claim is required") else { return nil }
        return AccessRight.allCases.first { lowercasedDetail.contains("\($0.rawValue.lowercased()) claim") }
    }

    /// Replaces the value after `SharedAccessSignature ` (up to whitespace, `"` or `<`) and after `sig=` (also up
    /// to `&`).
    /// Service details never hold one; a proxy echoing the request might.
    static func redactSecrets(_ text: String) -> String {
        var out = text
        for marker in ["SharedAccessSignature ", "sig="] {
            var searchStart = out.startIndex
            while let range = out[searchStart...].firstRange(of: marker) {
                let end =
                    out[range.upperBound...].firstIndex {
                        $0.isWhitespace || $0 == "\"" || $0 == "<" || (marker == "sig=" && $0 == "&")
                    } ?? out.endIndex
                out.replaceSubrange(range.upperBound..<end, with: Redaction.placeholder)
                searchStart = out.index(range.upperBound, offsetBy: Redaction.placeholder.count)
            }
        }
        return out
    }
}
