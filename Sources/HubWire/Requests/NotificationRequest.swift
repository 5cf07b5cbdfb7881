/// What a send carries (nh-rest-api.md §5): template or native format, tags or broadcast, optional direct
/// handle, test flag, schedule.
public struct NotificationRequest: Sendable, Equatable {
    /// Who receives the notification.
    public enum Target: Sendable, Equatable {
        /// Every registration and installation of the format's platform (no `ServiceBusNotification-Tags`).
        case broadcast
        /// Those matching a tag expression, sent as `ServiceBusNotification-Tags`.
        case tags(String)
        /// One device by PNS handle: `messages?direct` with `ServiceBusNotification-DeviceHandle`.
        case direct(String)
    }

    /// `ServiceBusNotification-Format`: template, apple, gcm, fcmv1, windows, windowsphone, adm, baidu, browser,
    /// xiaomi.
    public var format: String
    /// The payload: a flat JSON object of strings for templates, the native payload otherwise.
    public var body: [UInt8]
    /// Explicit Content-Type; nil means `effectiveContentType`'s default for the format.
    public var contentType: String?
    /// Who receives it.
    public var target: Target
    /// Platform headers (`apns-*`, `X-WNS-*`, `X-WindowsPhone-Target`, browser `P256DH`/`Auth`, …), in order.
    public var headers: [HubHeader]
    /// `&test`: a debug send with a detailed outcome (tags and broadcast only; at most 10 devices).
    public var test: Bool
    /// Epoch seconds: send through `schedulednotifications` with `ServiceBusNotification-ScheduleTime`.
    public var scheduleTime: Double?

    /// Creates a send.
    public init(
        format: String, body: [UInt8], target: Target, headers: [HubHeader] = [], contentType: String? = nil,
        test: Bool = false, scheduleTime: Double? = nil
    ) {
        self.format = format
        self.body = body
        self.target = target
        self.headers = headers
        self.contentType = contentType
        self.test = test
        self.scheduleTime = scheduleTime
    }

    /// `contentType`, else a `Content-Type` among `headers`, else the §5.1 default for the format.
    public var effectiveContentType: String {
        if let contentType { return contentType }
        if let header = headers.value(named: "Content-Type") { return header }
        return Self.defaultContentType(format: format, headers: headers)
    }

    /// The Content-Type the SDKs send for a format (nh-rest-api.md §5.1): `application/json;charset=utf-8` for
    /// template, apple, gcm, fcmv1, browser, xiaomi and unknown formats; `application/xml` for windows, or
    /// `application/octet-stream` when `X-WNS-Type` is `wns/raw`; `application/xml;charset=utf-8` for
    /// windowsphone; `application/json` for adm; `application/x-www-form-urlencoded` for baidu (as .NET).
    /// Format and header names compare case-insensitively.
    public static func defaultContentType(format: String, headers: [HubHeader]) -> String {
        // A format already in lower case (a batch's every request) is not copied to be trimmed and lower-cased.
        let plain = !format.isEmpty && format.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
        switch plain ? format : format.trimmingWhitespace().lowercased() {
        case "windows":
            let type = headers.value(named: "X-WNS-Type")?.trimmingWhitespace().lowercased()
            return type == "wns/raw" ? "application/octet-stream" : "application/xml"
        case "windowsphone":
            return "application/xml;charset=utf-8"
        case "adm":
            return "application/json"
        case "baidu":
            return "application/x-www-form-urlencoded"
        default:
            return "application/json;charset=utf-8"
        }
    }

    /// Why this combination cannot be sent as asked, or nil. `HubRequests.send` still builds a request for it
    /// (it cannot fail), resolving the conflict the safe way: a direct send ignores `test` and `scheduleTime`
    /// (it goes to the one device now rather than risk reaching more), and a scheduled send ignores `test`.
    /// Callers that validate input should reject the request when this is non-nil.
    public var conflict: String? {
        switch target {
        case .direct:
            if scheduleTime != nil {
                return "a direct send cannot be scheduled; schedule a tag or broadcast send instead"
            }
            if test { return "a direct send cannot be a test send; test sends go to tags or broadcast" }
            if format.trimmingWhitespace().lowercased() == "template" {
                return "a direct send needs a native format, not template (a template needs a registration to fill it)"
            }
        case .tags(let expression):
            if expression.trimmingWhitespace().isEmpty {
                return "the tag expression is empty; use a broadcast target to reach every device"
            }
            if test && scheduleTime != nil { return "a scheduled send cannot be a test send" }
        case .broadcast:
            if test && scheduleTime != nil { return "a scheduled send cannot be a test send" }
        }
        return nil
    }
}
