/// What went wrong with a response, in terms a person can act on.
///
/// `classify` reads the status, the NH `<Error>` body (tolerating none), `Retry-After` and `Date`; `message`
/// and `hint` turn that into words. Nothing here ever holds the Authorization value: the detail text comes from
/// the service and is scrubbed of anything that looks like a SAS token all the same.
public struct HubFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failure's category.
    public enum Kind: Sendable, Equatable {
        /// 401 `InvalidSignature` (wrong key, or a key name the hub does not know).
        case invalidSignature
        /// 401 `ExpiredToken`; the skew is the server's `Date` minus the local clock, when at least 60 s either way.
        case expiredToken(clockSkewSeconds: Int?)
        /// Any other 401.
        case unauthorized
        /// 403 without `Retry-After` (or an older 401 `… claim is required`): the key lacks the right.
        case missingRight(AccessRight)
        /// 429, or 403 with `Retry-After` (or a 403 whose detail speaks of a quota); seconds to wait, if given.
        case throttled(retryAfter: Double?)
        /// 404: the hub or the resource does not exist.
        case notFound
        /// 410: the registration id is no longer accepted.
        case gone
        /// 413 (or a 403 saying the message is too large); the request body's size.
        case payloadTooLarge(bytes: Int)
        /// 400.
        case badRequest
        /// 412: If-Match did not match.
        case preconditionFailed
        /// 408 or 5xx.
        case server(status: Int)
        /// Anything else (including 409).
        case unexpected(status: Int)
    }

    /// The category.
    public let kind: Kind
    /// The HTTP status.
    public let status: Int
    /// The NH `Detail` text without the `TrackingId`/`TimeStamp` tail; nil for empty bodies and empty details.
    public let detail: String?
    /// The `TrackingId` response header, else the one in the detail tail.
    public let trackingId: String?
    /// The failed request's `summary`, e.g. `send to 'follows_RedSox'`.
    public let operation: String

    /// Creates a failure; `classify` is the usual way.
    public init(kind: Kind, status: Int, detail: String?, trackingId: String?, operation: String) {
        self.kind = kind
        self.status = status
        self.detail = detail
        self.trackingId = trackingId
        self.operation = operation
    }

    /// True for throttling (429, 403 with Retry-After) and for 408, 500, 503 and 504. Whether a send may be
    /// resent after a 500 or 504 is the transport's decision (`HubRequest.isIdempotent`).
    public var isRetriable: Bool {
        switch kind {
        case .throttled: true
        case .server(let status): [408, 500, 503, 504].contains(status)
        default: false
        }
    }

    /// Classifies a non-2xx response for `request`; `now` is local epoch seconds (for clock skew from the `Date`
    /// header and for a `Retry-After` date). A 2xx passed here comes back as `unexpected`.
    public static func classify(_ response: HubResponse, for request: HubRequest, now: Double) -> HubFailure {
        let body = NHErrorBody(parsing: response.bodyText)
        let detail = FailureDetail.clean(body?.detail)
        let headerTrackingId = response.header("TrackingId")?.trimmingWhitespace()
        let trackingId = headerTrackingId?.isEmpty == false ? headerTrackingId : body?.trackingId
        let kind = kind(of: response, detail: detail ?? "", request: request, now: now)
        return HubFailure(
            kind: kind, status: response.status, detail: detail, trackingId: trackingId,
            operation: request.summary)
    }

    private static func kind(of response: HubResponse, detail: String, request: HubRequest, now: Double) -> Kind {
        let lower = detail.lowercased()
        let retryAfter = response.header("Retry-After")
        switch response.status {
        case 401:
            if lower.contains("expiredtoken") || lower.contains("expired") {
                return .expiredToken(clockSkewSeconds: clockSkew(response, now: now))
            }
            if lower.contains("invalidsignature") || lower.contains("invalid signature")
                || lower.contains("invalid authorization token signature")
            {
                return .invalidSignature
            }
            if let right = FailureDetail.requiredRight(in: lower) { return .missingRight(right) }
            return .unauthorized
        case 403:
            if retryAfter != nil { return .throttled(retryAfter: RetryAfter.seconds(retryAfter, now: now)) }
            if lower.contains("quota") || lower.contains("throttl") { return .throttled(retryAfter: nil) }
            if lower.contains("too large") { return .payloadTooLarge(bytes: request.body.count) }
            return .missingRight(FailureDetail.requiredRight(in: lower) ?? request.right)
        case 429:
            return .throttled(retryAfter: RetryAfter.seconds(retryAfter, now: now))
        case 400: return .badRequest
        case 404: return .notFound
        case 410: return .gone
        case 412: return .preconditionFailed
        case 413: return .payloadTooLarge(bytes: request.body.count)
        case 408, 500...599: return .server(status: response.status)
        default: return .unexpected(status: response.status)
        }
    }

    /// Server `Date` minus `now`, rounded, when at least a minute either way.
    private static func clockSkew(_ response: HubResponse, now: Double) -> Int? {
        guard let serverTime = response.header("Date").flatMap(HTTPDate.parse) else { return nil }
        let skew = Int((serverTime - now).rounded())
        return abs(skew) >= 60 ? skew : nil
    }
}
