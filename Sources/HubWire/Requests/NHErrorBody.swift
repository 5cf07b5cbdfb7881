/// The `<Error><Code>…</Code><Detail>…</Detail></Error>` body NH sends with failures (nh-rest-api.md §9).
public struct NHErrorBody: Sendable, Equatable {
    /// `<Code>`, usually the HTTP status; nil when absent or not a number.
    public let code: Int?
    /// `<Detail>` text, XML-unescaped, including any `TrackingId:` suffix.
    public let detail: String?

    /// Creates a value from parts.
    public init(code: Int?, detail: String?) {
        self.code = code
        self.detail = detail
    }

    /// Parses an error body tolerantly: nil for an empty body (newer front-ends send none) or text with
    /// neither `<Code>` nor `<Detail>`.
    public init?(parsing xml: String) {
        let codeText = XMLText.element("Code", in: xml)
        let detail = XMLText.element("Detail", in: xml)
        guard codeText != nil || detail != nil else { return nil }
        self.code = codeText.flatMap { Int($0.trimmingWhitespace()) }
        self.detail = detail
    }

    /// The detail without the `.TrackingId:…` suffix, e.g. `InvalidSignature: The token has an invalid signature.`
    public var message: String? {
        guard let detail else { return nil }
        guard let range = detail.firstRange(of: ".TrackingId:") else { return detail }
        return String(detail[..<range.lowerBound])
    }

    /// The tracking id from the detail suffix, if any.
    public var trackingId: String? {
        guard let detail, let range = detail.firstRange(of: "TrackingId:") else { return nil }
        let rest = detail[range.upperBound...]
        return String(rest.prefix { $0 != "," })
    }

    /// Renders a body as the service does: no XML declaration, no namespace, and the detail followed
    /// directly by `.TrackingId:…,TimeStamp:…` (hence the observed `..` after a detail ending in a period).
    public static func render(status: Int, detail: String, trackingId: String, timestamp: String) -> String {
        let text = "\(detail).TrackingId:\(trackingId),TimeStamp:\(timestamp)"
        return "<Error><Code>\(status)</Code><Detail>\(XMLText.escape(text))</Detail></Error>"
    }
}
