import AsyncHTTPClient
import HubWire
import LoopExecutor
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One attempt over AsyncHTTPClient: keep-alive connections, connect and request timeouts.
package final class AsyncHTTPExecutor: HTTPExecutor {
    let client: HTTPClient
    let requestTimeout: Int64
    /// The client's own one-thread event loop group, when it has one (see `init`).
    private let group: MultiThreadedEventLoopGroup?
    package let preferredExecutor: (any TaskExecutor)?
    /// Largest response body read (NH responses are small; a list page is the biggest).
    static let maxResponseBytes = 8 << 20

    /// Creates an executor with its own client; call `shutdown()` when done.
    /// - Parameters:
    ///   - connectTimeout: seconds to establish a connection.
    ///   - requestTimeout: seconds for a whole request and response.
    ///   - connectionsPerHost: keep-alive connections to one hub at most; give it the transport's
    ///     `maxConcurrent`, since one HTTP/1.1 connection carries one request at a time.
    ///   - ownThread: give the client an event loop of its own, one thread, and offer it as the
    ///     `preferredExecutor`: a batch that runs there hands each request to the client and takes its answer
    ///     back without switching threads (four switches a request otherwise). One core's worth of client is
    ///     far more than a hub takes from one process.
    ///   - trust: the certificates a hub's may chain to besides the system's (`PUSHLINE_CA_FILE`).
    package init(
        connectTimeout: Int64 = 10, requestTimeout: Int64 = 30,
        connectionsPerHost: Int = RetryingTransport.defaultMaxConcurrent,
        ownThread: Bool = false, trust: HubTrust = .system
    ) {
        var configuration = HTTPClient.Configuration()
        if !trust.certificates.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(trust.certificates)]
            configuration.tlsConfiguration = tls
        }
        configuration.timeout = .init(connect: .seconds(connectTimeout), read: .seconds(requestTimeout))
        configuration.httpVersion = .http1Only
        // AsyncHTTPClient's default of 8 would hold `concurrency: 16` to 8 requests in flight.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, connectionsPerHost)
        // A connection that cannot be made (refused, TLS refused) fails its request at once: RetryingTransport retries
        // with its own backoff. The pool's own retries would hold each attempt until the connect timeout (10 s).
        configuration.connectionPool.retryConnectionEstablishment = false
        // Hub requests are traced by RetryingTransport, one span for all attempts, with no query and no handle; with
        // AsyncHTTPClient's own tracer (the one a traced run installs) each attempt would be a span with the full URL,
        // and untraced each request would build a no-op span and its attributes.
        configuration.tracing.tracer = nil
        if ownThread {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            self.group = group
            preferredExecutor = LoopTaskExecutor(group.next())
            client = HTTPClient(eventLoopGroup: group, configuration: configuration)
        } else {
            group = nil
            preferredExecutor = nil
            client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        }
        self.requestTimeout = requestTimeout
    }

    package func perform(_ request: HubRequest, extraHeaders: [HubHeader]) async -> AttemptOutcome {
        var http = HTTPClientRequest(url: request.url)
        http.method = .init(rawValue: request.method.rawValue)
        http.headers.reserveCapacity(request.headers.count + extraHeaders.count)
        for header in request.headers { http.headers.add(name: header.name, value: header.value) }
        for header in extraHeaders { http.headers.add(name: header.name, value: header.value) }
        if !request.body.isEmpty { http.body = .bytes(request.body) }
        do {
            let response = try await client.execute(http, timeout: .seconds(requestTimeout))
            var body: [UInt8] = []
            for try await chunk in response.body {
                body.append(contentsOf: chunk.readableBytesView)
                if body.count > Self.maxResponseBytes { break }
            }
            let headers = response.headers.map { HubHeader($0.name, $0.value) }
            return .response(HubResponse(status: Int(response.status.code), headers: headers, body: body))
        } catch {
            return Self.classify(error)
        }
    }

    /// Whether the request could have reached the server. Connection set-up failures cannot have;
    /// everything after (read timeouts, resets, closed connections) might have.
    static func classify(_ error: any Error) -> AttemptOutcome {
        if let clientError = error as? HTTPClientError, clientError == .connectTimeout {
            return .notSent("connect timed out")
        }
        // A TLS handshake that failed sent nothing: the request is written only over an established session.
        if error is NIOSSLError || error is BoringSSLError {
            let text = String(describing: error)
            let reason =
                text.contains("CERTIFICATE_VERIFY_FAILED")
                ? "the hub's certificate is not one this machine trusts"
                : "the TLS handshake failed (\(text))"
            return .notSent(
                "\(reason); if it comes from a CA of your own (such as `pushline emulator --tls`), set "
                    + "\(HubTrust.variable) to that CA's PEM file")
        }
        // NIO's connection errors are not imported here; their descriptions are stable and say what happened.
        let text = String(describing: error)
        let typeName = String(describing: type(of: error))
        if typeName.contains("NIOConnectionError") || text.contains("Connection refused")
            || text.contains("connectionRefused")
            || text.contains("No address") || text.contains("lookup")
        {
            return .notSent(text.contains("refused") ? "connection refused" : text)
        }
        return .noResponse(text)
    }

    /// Closes connections; call once at the end of a run.
    package func shutdown() async {
        try? await client.shutdown()
        try? await group?.shutdownGracefully()
    }
}
