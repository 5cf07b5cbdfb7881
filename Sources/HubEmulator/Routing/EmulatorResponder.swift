import Foundation
import HTTPTypes
import HubWire
import Hummingbird

/// The emulator's handlers and what they share: the store, the configuration and the clock. `router()` puts them
/// behind Hummingbird's router.
struct EmulatorResponder: Sendable {
    /// Largest request body read at all; sends are held to NH's 64 KB separately (413).
    static let maxBodyBytes = 1 << 20
    /// The media type NH gives its XML answers.
    static let xmlType = "application/xml; charset=utf-8"

    let store: EmulatorStore
    let configuration: EmulatorConfiguration
    /// The emulator's clock (possibly offset from this machine's).
    let now: @Sendable () -> Date
    /// `http`, or `https` when served over TLS: the scheme of the URLs it answers with.
    let scheme: String

    init(
        store: EmulatorStore, configuration: EmulatorConfiguration, now: @escaping @Sendable () -> Date,
        scheme: String = "http"
    ) {
        self.store = store
        self.configuration = configuration
        self.now = now
        self.scheme = scheme
    }

    /// The request body as text, at most `limit` bytes.
    func body(_ call: Call, limit: Int = EmulatorResponder.maxBodyBytes) async throws -> String {
        try await call.body(limit: limit)
    }

    /// An answer with no body: today's service labels none of them (installation writes, deletes, sends).
    static func empty(_ status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentLength] = "0"
        return Response(status: status, headers: headers)
    }

    /// A response with a text body.
    func response(
        _ status: HTTPResponse.Status, contentType: String? = nil, body: String = "", headers: HTTPFields = [:]
    ) -> Response {
        var headers = headers
        if let contentType { headers[.contentType] = contentType }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// The NH error body (§9) with TrackingId and timestamp; empty for 403 missing-claim answers.
    func errorResponse(_ error: EmulatorError, trackingId: String) -> Response {
        var headers = HTTPFields()
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        let status = HTTPResponse.Status(code: error.status)
        guard !error.detail.isEmpty || error.status != 403 else { return Response(status: status, headers: headers) }
        let body = NHErrorBody.render(
            status: error.status, detail: error.detail, trackingId: trackingId,
            timestamp: Self.errorTimestamp(now()))
        return response(status, contentType: Self.xmlType, body: body, headers: headers)
    }

    /// `M/d/yyyy h:mm:ss tt` in UTC, as NH error details carry it.
    static func errorTimestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let hour = parts.hour ?? 0
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return
            "\(parts.month ?? 1)/\(parts.day ?? 1)/\(parts.year ?? 1970) \(twelve):\(String(format: "%02d:%02d", parts.minute ?? 0, parts.second ?? 0)) \(hour < 12 ? "AM" : "PM")"
    }
}
