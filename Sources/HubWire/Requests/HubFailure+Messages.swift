extension HubFailure {
    /// One sentence naming the problem, e.g. "the key lacks the Send right (a Listen-only key cannot send)".
    public var message: String {
        switch kind {
        case .invalidSignature:
            return "the token's signature is invalid: the key does not match the hub's policy"
        case .expiredToken(let skew?) where skew > 0:
            return "the token expired; the server's clock is \(Self.span(skew)) ahead of this machine's"
        case .expiredToken(let skew?):
            return "the token expired; the server's clock is \(Self.span(-skew)) behind this machine's"
        case .expiredToken(nil):
            return "the token expired"
        case .unauthorized:
            return "the hub refused the token" + (detail.map { ": \($0)" } ?? "")
        case .missingRight(let right):
            return "the key lacks the \(right.rawValue) right (\(Self.whyRight(right)))"
        case .throttled(let seconds?):
            return "throttled by the hub; retry after \(Self.seconds(seconds)) s"
        case .throttled(nil):
            return "throttled by the hub" + (detail.map { ": \($0)" } ?? "")
        case .notFound where isScheduledCancel:
            return "the scheduled notification does not exist on the hub"
        case .notFound:
            return "the hub or resource does not exist"
        case .gone:
            return "registration is gone"
        case .payloadTooLarge(let bytes):
            return "payload too large: \(bytes) bytes; NH accepts at most \(NHLimits.maxRequestBytes)"
        case .badRequest:
            return "bad request" + (detail.map { ": \($0)" } ?? "")
        case .preconditionFailed:
            return "the registration changed since it was read (If-Match did not match its ETag)"
        case .server(408):
            return "the hub timed out (HTTP 408)"
        case .server(let status):
            return "the hub had a server error (HTTP \(status))"
        case .unexpected(let status):
            return "unexpected HTTP \(status)" + (detail.map { ": \($0)" } ?? "")
        }
    }

    /// Whether the request cancelled a scheduled send (`HubRequests.cancelScheduled`): its 404 is about that send.
    private var isScheduledCancel: Bool { operation.hasPrefix("DELETE scheduled notification") }

    /// What to do about it; nil when there is nothing specific to suggest.
    public var hint: String? {
        switch kind {
        case .invalidSignature:
            return "copy the connection string again from the hub's Access Policies; SharedAccessKeyName and "
                + "SharedAccessKey must come from the same policy of this hub or its namespace"
        case .expiredToken(.some):
            return "set this machine's clock right (turn on network time sync); tokens are dated by the local clock"
        case .expiredToken(nil):
            return "sign a new token; if this keeps happening, check this machine's clock"
        case .unauthorized where detail?.contains("InvalidAudience") == true:
            return "sign the token for this namespace and hub: its resource must be a prefix of the request URL"
        case .unauthorized:
            return "check that the connection string is for this namespace and that its policy exists on the hub "
                + "or the namespace"
        case .missingRight(let right):
            return "use a connection string whose policy has the \(right.rawValue) right, such as "
                + "DefaultFullSharedAccessSignature"
        case .throttled:
            return "lower the request rate or concurrency; the hub's tier limits how fast it accepts requests"
        case .notFound where detail?.contains("No service is hosted") == true:
            return "check the hub name and the namespace in the connection string"
        case .notFound where isScheduledCancel:
            return
                "it was sent at its time, cancelled already, or scheduled on another hub: a scheduled send keeps its id "
                + "only until it fires (check the id the scheduling run reported)"
        case .notFound:
            return "check the hub name and the id; a just-written installation can take a moment to appear"
        case .gone:
            return "get a new registration id (POST registrationIDs) and upsert the registration with it"
        case .payloadTooLarge:
            return "shrink the payload, or send fewer handles per direct batch; the whole request body must fit in "
                + "\(NHLimits.maxRequestBytes) bytes"
        case .badRequest:
            return "check the body, the format and the platform headers; the detail says what the hub rejected"
        case .preconditionFailed:
            return "read the registration again and retry with its current ETag, or overwrite with If-Match: *"
        case .server:
            return "a transient problem on the service; retry later"
        case .unexpected:
            return nil
        }
    }

    /// The message, then NH's own Detail when the message does not already show it.
    public var messageWithDetail: String {
        guard let detail, !message.contains(detail) else { return message }
        return "\(message) (hub said: \(detail))"
    }

    /// `operation: message (hub said: detail)`, then the TrackingId (what Azure support asks for).
    public var description: String {
        var text = operation.isEmpty ? messageWithDetail : "\(operation): \(messageWithDetail)"
        if let trackingId { text += " [TrackingId: \(trackingId)]" }
        return text
    }

    private static func whyRight(_ right: AccessRight) -> String {
        switch right {
        case .send: "a Listen-only key cannot send"
        case .listen: "a Send-only key cannot manage installations or registrations"
        case .manage: "listing registrations by tag or all, and reading notification details, need a Manage key"
        }
    }

    /// `300 s`, or past two minutes also roughly in hours and minutes: `7199 s (about 2h)`.
    static func span(_ seconds: Int) -> String {
        guard seconds >= 120 else { return "\(seconds) s" }
        let minutes = (seconds + 30) / 60
        let rough = minutes >= 60 ? "\(minutes / 60)h" + (minutes % 60 == 0 ? "" : "\(minutes % 60)m") : "\(minutes)m"
        return "\(seconds) s (about \(rough))"
    }

    /// Whole seconds without a fraction, otherwise one decimal.
    private static func seconds(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}
