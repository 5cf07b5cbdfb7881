/// The body of `POST messages/$batch?direct`: one notification and the device handles to send it to
/// (nh-rest-api.md §5.3).
public struct DirectBatchRequest: Sendable, Equatable {
    /// The boundary the .NET and JS SDKs use.
    public static let defaultBoundary = "nh-batch-multipart-boundary"

    /// The native payload, as bytes.
    public var notification: [UInt8]
    /// The Content-Type of the notification part, e.g. `application/json;charset=utf-8`; empty when the part had none.
    public var notificationContentType: String
    /// Device handles in order. The service takes at most `NHLimits.maxDirectBatchHandles`; callers enforce that.
    public var devices: [String]

    /// Creates a request.
    public init(notification: [UInt8], notificationContentType: String, devices: [String]) {
        self.notification = notification
        self.notificationContentType = notificationContentType
        self.devices = devices
    }

    /// The Content-Type header value (`multipart/mixed; boundary="…"`) and the body, laid out exactly as in
    /// §5.3: CRLF line ends, the `notification` part, the `devices` part (compact JSON array), and the closing
    /// boundary line without a trailing line break.
    public func multipart(boundary: String = defaultBoundary) -> (contentType: String, body: [UInt8]) {
        let delimiter = "--\(boundary)"
        var body = Array(
            ("\(delimiter)\r\nContent-Type: \(notificationContentType)\r\n"
                + "Content-Disposition: inline; name=notification\r\n\r\n").utf8)
        body += notification
        body += Array(
            ("\r\n\(delimiter)\r\nContent-Type: application/json\r\n"
                + "Content-Disposition: inline; name=devices\r\n\r\n\(JSONText.array(devices))\r\n\(delimiter)--").utf8)
        return ("multipart/mixed; boundary=\"\(boundary)\"", body)
    }
}
