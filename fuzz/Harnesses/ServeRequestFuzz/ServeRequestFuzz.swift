import Foundation
import FuzzSupport
import HTTPServing
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
let server: PushServer = {
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
    return try! PushServer(settings: settings, transport: AnsweringHub())
}()

let routes: [(HTTPMethod, String)] = [
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
    var headers = HeaderFields()
    headers.append("apikey", apiKey)
    headers.append("Content-Type", first & 0x80 == 0 ? "application/json" : "text/plain")
    let request = ServedRequest(
        method: method, path: path, headers: headers, peerIP: "127.0.0.1",
        body: { limit in
            body.count > limit ? Array(body.prefix(limit + 1)) : body
        })
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var answer: ServedResponse?
    Task {
        answer = await server.handle(request)
        done.signal()
    }
    done.wait()
    guard let answer else { fatalError("no answer") }
    precondition(
        answer.status.code < 500 || [502, 503].contains(answer.status.code),
        "\(method) \(path) answered \(answer.status.code): \(String(decoding: answer.body, as: UTF8.self))")
    precondition(!String(decoding: answer.body, as: UTF8.self).contains(apiKey), "an answer shows the API key")
}
