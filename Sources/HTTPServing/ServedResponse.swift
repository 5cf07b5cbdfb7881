/// One answer: status, header fields and the whole body.
public struct ServedResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields (the server adds `Date`, `Server` and `Content-Length`).
    public var headers: HeaderFields
    /// The body bytes.
    public var body: [UInt8]

    /// An answer with a byte body.
    public init(status: HTTPStatus, headers: HeaderFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An answer with a text body, sent as UTF-8.
    public init(status: HTTPStatus, headers: HeaderFields = [:], text: String) {
        self.init(status: status, headers: headers, body: Array(text.utf8))
    }
}
