import Foundation
import HTTPServing
import HTTPTypes
import HubWire
import Hummingbird
import NIOCore
import Synchronization
import Testing

@testable import HubHTTP

/// The HTTP/1.1 client over TLS against a loopback HTTPS server with a certificate of a local authority
/// (`LocalCertificates`, as `pushline emulator --tls` makes them): trusted through `PUSHLINE_CA_FILE` it is answered,
/// otherwise nothing is sent, and the certificate must name the host the URL names.
@Suite struct HTTP1ClientTLSTests {
    @Test(arguments: ["localhost", "127.0.0.1"])
    func anHTTPSHubWhoseAuthorityIsTrustedAnswersOnOneConnection(host: String) async throws {
        let server = try await EchoServer.start(names: ["localhost", "127.0.0.1"])
        let trust = try HubTrust(environment: [HubTrust.variable: server.authorityFile])
        let client = HTTP1Client(trust: trust)
        var outcomes: [AttemptOutcome] = []
        for _ in 0..<3 {
            outcomes.append(
                await client.perform(request(send, port: server.port, scheme: "https", host: host), extraHeaders: []))
        }
        await client.shutdown()
        await server.stop()
        for outcome in outcomes {
            guard case .response(let response) = outcome else {
                Issue.record("expected a response, got \(outcome)")
                continue
            }
            #expect(response.status == 201)
            #expect(response.body == send.body)
        }
        #expect(server.connections == 1)
    }

    @Test func aHubWhoseAuthorityIsNotTrustedIsNotSent() async throws {
        let server = try await EchoServer.start(names: ["localhost"])
        let client = HTTP1Client(trust: .system)
        let outcome = await client.perform(
            request(send, port: server.port, scheme: "https", host: "localhost"), extraHeaders: [])
        await client.shutdown()
        await server.stop()
        guard case .notSent(let reason) = outcome else {
            Issue.record("expected notSent, got \(outcome)")
            return
        }
        #expect(reason.contains("not one this machine trusts"))
        #expect(reason.contains(HubTrust.variable))
        #expect(server.requests == 0)
    }

    /// A certificate for `localhost` does not do for 127.0.0.1, even from a trusted authority.
    @Test func aCertificateForAnotherHostIsNotSent() async throws {
        let server = try await EchoServer.start(names: ["localhost"])
        let trust = try HubTrust(environment: [HubTrust.variable: server.authorityFile])
        let client = HTTP1Client(trust: trust)
        let outcome = await client.perform(
            request(send, port: server.port, scheme: "https", host: "127.0.0.1"), extraHeaders: [])
        await client.shutdown()
        await server.stop()
        guard case .notSent = outcome else {
            Issue.record("expected notSent, got \(outcome)")
            return
        }
        #expect(server.requests == 0)
    }
}

/// An HTTPS server on loopback that answers every request 201 with the body it was sent, and counts requests and
/// the connections they came on (by the peer's port).
private final class EchoServer: Sendable {
    let port: UInt16
    let authorityFile: String
    private let server: HTTPServer<PeerContext>
    private let task: Task<Void, any Error>
    private let seen: Seen
    private let folder: String

    var requests: Int { seen.counts.withLock { $0.requests } }
    var connections: Int { seen.counts.withLock { $0.peers.count } }

    /// What the server saw: requests, and the peers they came from.
    final class Seen: Sendable {
        let counts = Mutex<(requests: Int, peers: Set<String>)>((0, []))
    }

    private init(
        port: UInt16, authorityFile: String, server: HTTPServer<PeerContext>, task: Task<Void, any Error>,
        seen: Seen, folder: String
    ) {
        (self.port, self.authorityFile, self.server, self.task, self.folder) = (
            port, authorityFile, server, task, folder
        )
        self.seen = seen
    }

    static func start(names: [String]) async throws -> EchoServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)").path
        let certificates = try LocalCertificates.prepare(folder: folder, names: names)
        let seen = Seen()
        let server = HTTPServer(
            options: ServerOptions(
                host: "127.0.0.1", port: 0, serverName: "echo", quiet: true, tls: certificates.server),
            responder: CallbackResponder { (request: Request, context: PeerContext) in
                var request = request
                let body = try await request.collectBody(upTo: 1 << 20)
                seen.counts.withLock {
                    $0.requests += 1
                    $0.peers.insert(context.peer)
                }
                return Response(status: .created, body: ResponseBody(byteBuffer: body))
            })
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            defer { continuation.finish() }
            try await server.run { continuation.yield($0) }
        }
        var bound: Int?
        for await port in ports {
            bound = port
            break
        }
        guard let bound else { throw CocoaError(.fileReadUnknown) }
        return EchoServer(
            port: UInt16(bound), authorityFile: certificates.authorityFile, server: server, task: task, seen: seen,
            folder: folder)
    }

    func stop() async {
        await server.shutdown()
        _ = try? await task.value
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// A request's context that keeps the peer's address, so the server can tell its connections apart.
private struct PeerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let peer: String

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        peer = source.channel.remoteAddress?.description ?? ""
    }
}
