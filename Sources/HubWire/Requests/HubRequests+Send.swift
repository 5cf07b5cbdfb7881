extension HubRequests {
    /// A send (nh-rest-api.md §5); Send, never idempotent (NH has no idempotency key, so a resend may deliver
    /// twice).
    ///
    /// * tags / broadcast: `POST messages` (`&test` when `test`), or `POST schedulednotifications` with
    ///   `ServiceBusNotification-ScheduleTime` (`yyyy-MM-ddTHH:mm:ss`, UTC) when `scheduleTime` is set. A tag
    ///   expression goes in `ServiceBusNotification-Tags`, trimmed; an empty one is never sent as an empty
    ///   header, so it degrades to broadcast — `NotificationRequest.conflict` flags it.
    /// * direct: `POST messages?…&direct` with `ServiceBusNotification-DeviceHandle`; `test` and `scheduleTime`
    ///   do not apply and are ignored.
    ///
    /// Headers: `Content-Type`, `ServiceBusNotification-Format`, the target header(s), then the platform headers
    /// in order — minus any the builder owns (Authorization, Content-Type, ServiceBusNotification-Format, -Tags,
    /// -DeviceHandle, -ScheduleTime). Line breaks in header values become spaces.
    public static func send(_ notification: NotificationRequest, at endpoint: HubEndpoint) -> HubRequest {
        var headers = [
            HubHeader("Content-Type", headerValue(notification.effectiveContentType)),
            HubHeader("ServiceBusNotification-Format", headerValue(notification.format)),
        ]
        var flags: [String] = []
        let path: String
        let summary: String
        switch notification.target {
        case .direct(let handle):
            headers.append(HubHeader("ServiceBusNotification-DeviceHandle", headerValue(handle)))
            path = "messages"
            flags = ["direct"]
            summary = "direct send to \(quoted(handle))"
        case .tags, .broadcast:
            let expression = tagExpression(of: notification.target)
            if let expression { headers.append(HubHeader("ServiceBusNotification-Tags", expression)) }
            let audience = expression.map { "send to \(quoted($0))" } ?? "broadcast send"
            if let time = notification.scheduleTime {
                let formatted = ScheduleTime.format(time)
                headers.append(HubHeader("ServiceBusNotification-ScheduleTime", formatted))
                path = "schedulednotifications"
                summary = "scheduled \(audience) at \(formatted) UTC"
            } else {
                path = "messages"
                if notification.test { flags = ["test"] }
                summary = notification.test ? "test \(audience)" : audience
            }
        }
        headers += platformHeaders(notification.headers)
        return HubRequest(
            method: .post, url: endpoint.url(path, flags: flags), headers: headers,
            body: notification.body, isIdempotent: false, summary: summary, right: .send)
    }

    /// `POST messages/$batch?…&direct`: one native payload to `handles`, as the multipart body of
    /// `DirectBatchRequest` (§5.3). The outer headers are the multipart `Content-Type`,
    /// `ServiceBusNotification-Format` and the platform headers; the notification part's Content-Type is
    /// `payloadContentType`, or the format's default. Send, not idempotent. NH takes at most
    /// `NHLimits.maxDirectBatchHandles` handles per request; callers chunk.
    public static func directBatch(
        format: String, payload: [UInt8], payloadContentType: String?, handles: [String],
        headers: [HubHeader], at endpoint: HubEndpoint
    ) -> HubRequest {
        let partType = payloadContentType ?? NotificationRequest.defaultContentType(format: format, headers: headers)
        let batch = DirectBatchRequest(
            notification: payload, notificationContentType: headerValue(partType),
            devices: handles)
        let (contentType, body) = batch.multipart()
        let outer =
            [
                HubHeader("Content-Type", contentType),
                HubHeader("ServiceBusNotification-Format", headerValue(format)),
            ] + platformHeaders(headers)
        let devices = handles.count == 1 ? "1 device" : "\(handles.count) devices"
        return HubRequest(
            method: .post, url: endpoint.url("messages/$batch", flags: ["direct"]), headers: outer,
            body: body, isIdempotent: false, summary: "direct batch send to \(devices)", right: .send)
    }

    /// Headers the send builders set themselves; the same names among caller headers are dropped.
    private static let ownedHeaders: Set<String> = [
        "authorization", "content-type", "servicebusnotification-format", "servicebusnotification-tags",
        "servicebusnotification-devicehandle", "servicebusnotification-scheduletime",
    ]

    /// Caller headers without the owned ones and without nameless ones, values on one line.
    static func platformHeaders(_ headers: [HubHeader]) -> [HubHeader] {
        headers.compactMap { header in
            let name = header.name.trimmingWhitespace()
            guard !name.isEmpty, !ownedHeaders.contains(name.lowercased()) else { return nil }
            return HubHeader(name, headerValue(header.value))
        }
    }

    /// The trimmed tag expression, or nil for broadcast and for an empty expression.
    static func tagExpression(of target: NotificationRequest.Target) -> String? {
        guard case .tags(let expression) = target else { return nil }
        let value = headerValue(expression)
        return value.isEmpty ? nil : value
    }

    /// A header value on one line: CR and LF become spaces (no header injection; a tag expression written over
    /// several YAML lines stays one expression), surrounding whitespace trimmed.
    static func headerValue(_ text: String) -> String {
        // Most values (every row's, in a batch) need nothing done: no line break, no space at either end.
        let bytes = text.utf8
        if let first = bytes.first, let last = bytes.last, isPlain(first), isPlain(last),
            !bytes.contains(where: { $0 == 0x0A || $0 == 0x0D })
        {
            return text
        }
        return String(text.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 }).trimmingWhitespace()
    }

    /// An ASCII byte that is not whitespace.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }
}
