import Foundation
import HTTPServing
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// A context that keeps the peer, as both servers' do.
struct PeerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let peer: PeerConnection

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = PeerConnection(source: source)
    }
}

/// Starts a server with `handler` on a free loopback port, runs `body` against it, stops it.
func withServer(
    _ options: ServerOptions = ServerOptions(host: "127.0.0.1", port: 0, serverName: "test", quiet: true),
    handler: @escaping @Sendable (Request, PeerContext) async throws -> Response,
    _ body: @Sendable (Int) async throws -> Void
) async throws {
    let server = HTTPServer(options: options, responder: CallbackResponder(callback: handler))
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let task = Task {
        defer { continuation.finish() }
        try await server.run { continuation.yield($0) }
    }
    var port = 0
    for await bound in ports {
        port = bound
        break
    }
    #expect(port > 0)
    do { try await body(port) } catch {
        await server.shutdown()
        _ = try? await task.value
        throw error
    }
    await server.shutdown()
    try await task.value
}

/// A raw answer: status, fields, body text.
struct Answer: Sendable {
    let status: Int
    let headers: HTTPFields
    let text: String
}

/// One request on a fresh connection, through HummingbirdTesting's raw HTTP/1.1 client.
func send(_ port: Int, _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], body: [UInt8]? = nil)
    async throws -> Answer
{
    let request = TestClient.Request(
        uri, method: method, authority: "127.0.0.1:\(port)", headers: headers,
        body: body.map { ByteBuffer(bytes: $0) })
    let response = try await TestClient.withClient(
        host: "127.0.0.1", port: port,
        configuration: .init(timeout: .seconds(60))
    ) { client in
        try await client.execute(request)
    }
    return Answer(
        status: Int(response.status.code), headers: response.headers,
        text: response.body.map { String(buffer: $0) } ?? "")
}

@Suite struct HTTPServerTests {
    @Test func handsTheResponderTheRequestAndThePeerAndSendsItsAnswer() async throws {
        let seen = Mutex<(request: Request, peer: PeerConnection)?>(nil)
        try await withServer(handler: { request, context in
            seen.withLock { $0 = (request, context.peer) }
            return Response(
                status: .created, headers: [HTTPField.Name("X-Answer")!: "yes", .location: "/there"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "made")))
        }) { port in
            var headers = HTTPFields()
            headers[HTTPField.Name("X-Mixed-Case")!] = "v1"
            let response = try await send(port, .put, "/a%2Fb/c?x=1&y=%20", headers: headers)
            #expect(response.status == 201)
            #expect(response.headers[HTTPField.Name("x-answer")!] == "yes")
            #expect(response.headers[.location] == "/there")
            #expect(response.headers[.server] == "test")
            #expect(response.text == "made")
        }
        let (request, peer) = try #require(seen.withLock { $0 })
        #expect(request.method == .put)
        #expect(request.uri.path == "/a%2Fb/c")
        #expect(request.uri.query == "x=1&y=%20")
        #expect(request.headers[HTTPField.Name("x-mixed-case")!] == "v1")
        #expect(peer.ip == "127.0.0.1")
        #expect(peer.isLoopback)
        #expect(!PeerConnection(ip: "10.1.2.3").isLoopback)
        #expect(PeerConnection(ip: "::1").isLoopback && PeerConnection(ip: nil).isLoopback)
    }

    @Test func aHeadAnswerIsTheHeadAlone() async throws {
        try await withServer(handler: { _, _ in
            Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "a body")))
        }) { port in
            let head = try await send(port, .head, "/")
            #expect(head.status == 200)
            #expect(head.text.isEmpty)
            #expect(try await send(port, .get, "/").text == "a body")
        }
    }

    @Test func datesResponsesWithTheGivenClock() async throws {
        let past = Date(timeIntervalSince1970: 1_000_000_000)  // 2001-09-09T01:46:40Z
        let options = ServerOptions(
            host: "127.0.0.1", port: 0, serverName: "test", quiet: true, responseClock: { past })
        try await withServer(options, handler: { _, _ in Response(status: .noContent) }) { port in
            let response = try await send(port, .get, "/")
            #expect(response.headers[.date] == "Sun, 09 Sep 2001 01:46:40 GMT")
        }
    }

    @Test func shutdownLetsARequestInFlightFinish() async throws {
        // The handler says when it has the request, so shutdown comes while it is in flight, however slow the machine.
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let server = HTTPServer(
            options: ServerOptions(host: "127.0.0.1", port: 0, serverName: "test", quiet: true),
            responder: CallbackResponder { (_: Request, _: PeerContext) in
                arrival.yield()
                try? await Task.sleep(for: .milliseconds(500))
                return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "finished")))
            })
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let running = Task {
            defer { continuation.finish() }
            try await server.run { continuation.yield($0) }
        }
        var port = 0
        for await bound in ports {
            port = bound
            break
        }
        let inFlight = Task { [port] in try await send(port, .get, "/slow") }
        for await _ in arrived { break }
        await server.shutdown()
        let response = try await inFlight.value
        #expect(response.status == 200)
        #expect(response.text == "finished")
        try await running.value
    }
}
