import Foundation
import FuzzSupport
import HTTPTypes
import HubWire
import PipelineCore
import PushService

/// `pushline serve`'s request decoding, through the whole server: an input's first byte picks a route and its
/// method, the next line is the path's id (or a whole path), the rest is the body. The caller holds an API key
/// with the register and send scopes; the hub is a stand-in that answers every request. Oracle: no input traps,
/// and no answer is a 5xx other than the hub's 502/503 or echoes the API key.
struct AnsweringHub: HubTransport {
    func execute(
        _ request: HubRequest, authorization: @escaping @Sendable () -> String,
        policy: RetryPolicy
    ) async throws(TransportError) -> TransportResult {
        let status = request.method == .get ? 404 : (request.method == .post ? 201 : 200)
        let headers =
            request.method == .post
            ? [
                HubHeader(
                    "Location", "https://x.servicebus.windows.net/myhub/registrationids/1-2-3?api-version=2015-01")
            ] : []
        return TransportResult(
            response: HubResponse(status: status, headers: headers), attempts: 1, elapsedMs: 0, trackingId: "t")
    }
}

let apiKey = "fuzz-api-key-0123456789abcdef"
let client: InProcessClient = {
    let connection = try! ConnectionString(
        parsing: "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=hub-key")
    let hub = HubDeclaration(
        name: "h", location: SourceLocation(file: "service.yaml", line: 1, column: 1), connection: connection,
        hubName: "myhub", endpoint: nil)
    var settings = ServiceSettings(hub: hub)
    settings.apiKeys = [
        .init(name: "app", digest: ContentDigest.hex(apiKey), scopes: [.register, .send], user: "alice")
    ]
    settings.perIdentityPerMinute = 1 << 40
    settings.perAddressPerMinute = 1 << 40
    return InProcessClient(try! PushServer(settings: settings, transport: AnsweringHub()))
}()

let routes: [(HTTPRequest.Method, String)] = [
    (.put, "/v1/installations/"), (.post, "/api/register"), (.put, "/api/register/"), (.post, "/api/notifications"),
    (.put, "/api/notifications/installations"), (.post, "/api/notifications/requests"), (.delete, "/api/register/"),
    (.delete, "/v1/installations/"), (.get, "/v1/installations/"), (.post, ""), (.put, ""), (.get, ""),
]

func fuzzOne(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let rest = Array(bytes.dropFirst())
    let newline = rest.firstIndex(of: 10) ?? rest.endIndex
    let segment = String(decoding: rest[..<newline], as: UTF8.self)
    let body = newline < rest.endIndex ? Array(rest[(newline + 1)...]) : []
    let (method, prefix) = routes[Int(first) % routes.count]
    let path =
        prefix.isEmpty
        ? (segment.hasPrefix("/") ? segment : "/" + segment)
        : (prefix.hasSuffix("/") ? prefix + segment : prefix)
    var headers = HTTPFields()
    headers[HTTPField.Name("apikey")!] = apiKey
    headers[.contentType] = first & 0x80 == 0 ? "application/json" : "text/plain"
    let request = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1", path: path, headerFields: headers)
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var answer: (response: HTTPResponse, body: [UInt8])?
    Task {
        answer = await client.answer(request, body: body)
        done.signal()
    }
    done.wait()
    guard let answer else { fatalError("no answer") }
    let text = String(decoding: answer.body, as: UTF8.self)
    let status = answer.response.status.code
    precondition(status < 500 || [502, 503].contains(status), "\(method) \(path) answered \(status): \(text)")
    precondition(!text.contains(apiKey), "an answer shows the API key")
}
