import Foundation
import HubWire
import PipelineCore
import Testing

@testable import HubHTTP

/// The HTTP/1.1 client against a loopback server written on plain sockets: what it writes, how it keeps and opens
/// connections, and what an attempt that fails comes to.
@Suite struct HTTP1ClientTests {
    @Test func aClosedPortIsNotSent() async {
        let executor = HTTP1Client(connectTimeout: .seconds(2), requestTimeout: .seconds(5))
        let outcome = await executor.perform(send, extraHeaders: [])
        await executor.shutdown()
        guard case .notSent = outcome else {
            Issue.record("expected notSent for a refused connection, got \(outcome)")
            return
        }
    }

    /// One HTTP/1.1 connection carries one request at a time, so `concurrency: 24` needs 24 connections;
    /// A pool that opened fewer would queue the rest.
    @Test(arguments: [24, 4]) func opensAsManyConnectionsAsRequestsInFlight(limit: Int) async throws {
        let server = try SlowLoopbackServer(holdSeconds: 0.3, gather: limit)
        defer { server.stop() }
        let executor = HTTP1Client(
            connectTimeout: .seconds(30), requestTimeout: .seconds(60), connectionsPerHost: limit)
        let transport = RetryingTransport(executor: executor, maxConcurrent: limit)
        let sendable = request(send, port: server.port)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<(limit * 2) {
                group.addTask {
                    _ = try? await transport.execute(
                        sendable, authorization: { "SharedAccessSignature x" }, policy: RetryPolicy())
                }
            }
        }
        await executor.shutdown()
        #expect(server.requests == limit * 2)
        #expect(server.peakConnections == limit)
    }

    /// A run's client has an event loop of its own and offers it as the executor a batch prefers: work placed
    /// there runs on the loop's thread, and its requests still go out and come back.
    @Test func aClientWithItsOwnThreadRunsPreferringTasksThere() async throws {
        let server = try SlowLoopbackServer(holdSeconds: 0.05)
        defer { server.stop() }
        let shared = HTTP1Client()
        #expect(RetryingTransport(executor: shared).preferredExecutor == nil)
        await shared.shutdown()
        let executor = HTTP1Client(
            connectTimeout: .seconds(2), requestTimeout: .seconds(10), connectionsPerHost: 4, ownThread: true)
        let transport = RetryingTransport(executor: executor, maxConcurrent: 4)
        let preferred = try #require(transport.preferredExecutor)
        let sendable = request(send, port: server.port)
        let (threads, statuses) = await withTaskExecutorPreference(preferred) {
            await withTaskGroup(of: (String, Int?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let status = try? await transport.execute(
                            sendable, authorization: { "SharedAccessSignature x" }, policy: RetryPolicy()
                        ).response.status
                        return (currentThreadName(), status)
                    }
                }
                var threads = Set<String>()
                var statuses: [Int?] = []
                for await (thread, status) in group {
                    threads.insert(thread)
                    statuses.append(status)
                }
                return (threads, statuses)
            }
        }
        await executor.shutdown()
        #expect(statuses == Array(repeating: 201, count: 8))
        #expect(threads.count == 1)
        #expect(threads.first?.hasPrefix("NIO-ELT") == true)
        #expect(server.requests == 8)
    }

    /// A request as the hub reads it: the head NIOHTTP1 writes, with the Host, the length of the body and the
    /// request's own headers; the answer's status, headers and body come back whole.
    @Test func writesTheRequestAndReadsTheWholeAnswer() async throws {
        let answer = "HTTP/1.1 201 Created\r\nLocation: https://h/myhub/x\r\nContent-Length: 5\r\n\r\nhello"
        let server = try SlowLoopbackServer(answer: .keepAlive(answer))
        defer { server.stop() }
        let client = HTTP1Client(connectTimeout: .seconds(10), requestTimeout: .seconds(30))
        let outcome = await client.perform(
            request(send, port: server.port), extraHeaders: [HubHeader("Authorization", "SharedAccessSignature x")])
        await client.shutdown()
        let expected = HubResponse(
            status: 201, headers: [HubHeader("Location", "https://h/myhub/x"), HubHeader("Content-Length", "5")],
            body: Array("hello".utf8))
        #expect(outcome == .response(expected))
        let head = try #require(server.requestHeads.first)
        #expect(head.hasPrefix("post /myhub/messages/?api-version=2015-01 http/1.1\r\n"))
        #expect(head.contains("\r\nhost: 127.0.0.1:\(server.port)\r\n"))
        #expect(head.contains("\r\ncontent-length: \(send.body.count)\r\n"))
        #expect(head.contains("\r\nauthorization: sharedaccesssignature x\r\n"))
        #expect(head.contains("\r\nservicebusnotification-format: template\r\n"))
        #expect(!head.contains("transfer-encoding"))
    }

    /// Requests one after another share one keep-alive connection.
    @Test func requestsInTurnShareOneConnection() async throws {
        let server = try SlowLoopbackServer()
        defer { server.stop() }
        let client = HTTP1Client(connectionsPerHost: 4)
        var statuses: [Int] = []
        for _ in 0..<5 {
            if case .response(let response) = await client.perform(request(send, port: server.port), extraHeaders: []) {
                statuses.append(response.status)
            }
        }
        await client.shutdown()
        #expect(statuses == Array(repeating: 201, count: 5))
        #expect(server.accepted == 1)
    }

    /// A hub that answers `Connection: close` and closes: the next request opens a connection of its own and is
    /// answered, not failed on the closed one.
    @Test func aConnectionTheHubClosesIsNotUsedAgain() async throws {
        let answer = "HTTP/1.1 201 Created\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        let server = try SlowLoopbackServer(answer: .thenClose(answer))
        defer { server.stop() }
        let client = HTTP1Client()
        var outcomes: [AttemptOutcome] = []
        for _ in 0..<3 { outcomes.append(await client.perform(request(send, port: server.port), extraHeaders: [])) }
        await client.shutdown()
        #expect(outcomes.allSatisfy { if case .response(let r) = $0 { r.status == 201 } else { false } })
        #expect(server.accepted == 3)
    }

    /// A request written and never answered is of unknown fate once its time is up, and its connection is closed
    /// (the answer could still come, to a request no one waits for).
    @Test func aRequestNotAnsweredInTimeHasNoResponse() async throws {
        let server = try SlowLoopbackServer(answer: .never)
        defer { server.stop() }
        // Long enough that a loaded machine connects and writes well within it: the server never answers anyway.
        let client = HTTP1Client(connectTimeout: .seconds(10), requestTimeout: .seconds(2))
        let outcome = await client.perform(request(send, port: server.port), extraHeaders: [])
        await client.shutdown()
        guard case .noResponse(let reason) = outcome else {
            Issue.record("expected noResponse, got \(outcome)")
            return
        }
        #expect(reason.contains("no response within"))
        #expect(server.requestHeads.count == 1)
    }

    /// A host that does not resolve is a request not sent, and says which host.
    @Test func aHostThatDoesNotResolveIsNotSent() async {
        var unresolvable = send
        unresolvable.url = "http://pushline-test.invalid/myhub/messages/?api-version=2015-01"
        let client = HTTP1Client(connectTimeout: .seconds(5))
        let outcome = await client.perform(unresolvable, extraHeaders: [])
        await client.shutdown()
        guard case .notSent(let reason) = outcome else {
            Issue.record("expected notSent, got \(outcome)")
            return
        }
        #expect(reason.contains("pushline-test.invalid"))
    }

    /// A header NIOHTTP1 refuses to write (a value with a line break, say from a row) fails its attempt at once as not
    /// sent, and the next request on the pool is answered.
    @Test func aRequestThatCannotBeWrittenIsNotSentAndThePoolGoesOn() async throws {
        let server = try SlowLoopbackServer()
        defer { server.stop() }
        let client = HTTP1Client(requestTimeout: .seconds(600))
        var bad = request(send, port: server.port)
        bad.headers.append(HubHeader("apns-collapse-id", "a\r\nX-Injected: 1"))
        let refused = await client.perform(bad, extraHeaders: [])
        let next = await client.perform(request(send, port: server.port), extraHeaders: [])
        await client.shutdown()
        guard case .notSent = refused else {
            Issue.record("expected notSent, got \(refused)")
            return
        }
        guard case .response(let response) = next else {
            Issue.record("expected a response, got \(next)")
            return
        }
        #expect(response.status == 201)
        #expect(server.requestHeads.count == 1)
        #expect(!server.requestHeads.joined().contains("x-injected"))
    }

    /// An HTTPS endpoint that takes the TCP connection and never answers the TLS hello is a request not sent, ended
    /// at the connect limit, not at the request's.
    @Test func aTLSHandshakeThatNeverCompletesIsNotSentAtTheConnectLimit() async throws {
        let server = try SlowLoopbackServer(answer: .never)
        defer { server.stop() }
        // Long enough that a loaded machine makes the TCP connection well within it: the TLS answer never comes anyway.
        let client = HTTP1Client(connectTimeout: .seconds(2), requestTimeout: .seconds(600))
        let outcome = await client.perform(request(send, port: server.port, scheme: "https"), extraHeaders: [])
        await client.shutdown()
        #expect(outcome == .notSent("the TLS handshake did not complete within 2 s"))
        #expect(server.requestHeads.isEmpty)
    }

    /// After shutdown nothing is sent.
    @Test func aClientShutDownSendsNothing() async throws {
        let server = try SlowLoopbackServer()
        defer { server.stop() }
        let client = HTTP1Client()
        await client.shutdown()
        let outcome = await client.perform(request(send, port: server.port), extraHeaders: [])
        #expect(outcome == .notSent("the HTTP client is shut down"))
        #expect(server.accepted == 0)
    }
}

/// `request` sent to the loopback server on `port`.
func request(_ request: HubRequest, port: UInt16, scheme: String = "http", host: String = "127.0.0.1") -> HubRequest {
    var request = request
    request.url = "\(scheme)://\(host):\(port)/myhub/messages/?api-version=2015-01"
    return request
}

@Suite struct HubOriginTests {
    @Test(arguments: [
        (
            "https://ns.servicebus.windows.net/hub/messages/?api-version=2015-01", true, "ns.servicebus.windows.net",
            443,
            "/hub/messages/?api-version=2015-01"
        ),
        ("http://127.0.0.1:8080/hub/x", false, "127.0.0.1", 8080, "/hub/x"),
        ("HTTP://[::1]:9/a?b=c#frag", false, "::1", 9, "/a?b=c"),
        ("https://[::1]?q=1", true, "::1", 443, "/?q=1"),
        ("http://host", false, "host", 80, "/"),
    ])
    func splitsAURL(url: String, tls: Bool, host: String, port: Int, target: String) throws {
        let (origin, path) = try #require(HubOrigin.split(url))
        #expect(origin.tls == tls)
        #expect(origin.host == host)
        #expect(origin.port == port)
        #expect(path == target)
    }

    @Test func oneOriginHoweverItsURLSpellsIt() throws {
        let spellings = ["https://NS.example.net/a", "https://ns.example.net:443/b", "HTTPS://ns.Example.net?c"]
        let origins = try spellings.map { try #require(HubOrigin.split($0)).origin }
        #expect(Set(origins).count == 1)
        #expect(origins.map(\.authority) == ["NS.example.net", "ns.example.net:443", "ns.Example.net"])
        #expect(HubOrigin.split("http://ns.example.net/")?.origin != origins[0])
    }

    @Test(arguments: [
        "ftp://host/x", "http://", "http://user:pw@host/x", "http://host:0/x", "http://host:65536/", "http://[::1/x",
        "http://host:port/", "sb://ns.servicebus.windows.net/",
    ])
    func refusesWhatIsNotAnHTTPURL(url: String) {
        #expect(HubOrigin.split(url) == nil)
    }
}
