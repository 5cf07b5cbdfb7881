import HubWire
import LoopExecutor
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One attempt over HTTP/1.1 on SwiftNIO: NIOHTTP1's codecs, TLS through NIOSSL with the system's trust store (and
/// `PUSHLINE_CA_FILE`'s certificates), a fixed pool of keep-alive connections to each hub, connect and request time
/// limits.
///
/// The requests of a run are small and alike, and a general client's machinery (a pool manager shared across loops,
/// streamed bodies, redirects) costs more CPU than the request itself; this client writes each request and reads its
/// answer on one event loop, with one promise between the caller and the loop.
package final class HTTP1Client: HTTPExecutor {
    private let pool: ConnectionPool
    /// The client's own one-thread event loop group, when it has one (see `init`).
    private let group: MultiThreadedEventLoopGroup?
    package let preferredExecutor: (any TaskExecutor)?
    /// Largest response body kept (NH responses are small; a list page is the biggest).
    static let maxResponseBytes = 8 << 20

    /// Creates a client; call `shutdown()` when done.
    /// - Parameters:
    ///   - connectTimeout: time to establish a connection (and, for HTTPS, its TLS session).
    ///   - requestTimeout: time for a whole attempt, from the moment it is handed over to its response's last byte.
    ///   - connectionsPerHost: keep-alive connections to one hub at most; give it the transport's `maxConcurrent`,
    ///     since one HTTP/1.1 connection carries one request at a time. Requests beyond it wait for one in order.
    ///   - ownThread: give the client an event loop of its own, one thread, and offer it as the `preferredExecutor`:
    ///     a batch that runs there hands each request to the client and takes its answer back without switching
    ///     threads. One core's worth of client is far more than a hub takes from one process.
    ///   - trust: the certificates a hub's may chain to besides the system's (`PUSHLINE_CA_FILE`).
    package init(
        connectTimeout: Duration = .seconds(10), requestTimeout: Duration = .seconds(30),
        connectionsPerHost: Int = RetryingTransport.defaultMaxConcurrent,
        ownThread: Bool = false, trust: HubTrust = .system
    ) {
        let loop: any EventLoop
        if ownThread {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            loop = group.next()
            self.group = group
            preferredExecutor = LoopTaskExecutor(loop)
        } else {
            loop = MultiThreadedEventLoopGroup.singleton.next()
            group = nil
            preferredExecutor = nil
        }
        pool = ConnectionPool(
            loop: loop, perOrigin: connectionsPerHost, connectTimeout: TimeAmount(connectTimeout),
            requestTimeout: TimeAmount(requestTimeout), trust: trust)
    }

    package func perform(_ request: HubRequest, extraHeaders: [HubHeader]) async -> AttemptOutcome {
        guard let (origin, target) = HubOrigin.split(request.url) else {
            return .notSent("'\(request.url)' is not an http or https URL")
        }
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headers.count + extraHeaders.count + 2)
        headers.add(name: "Host", value: origin.authority)
        for header in request.headers { headers.add(name: header.name, value: header.value) }
        for header in extraHeaders { headers.add(name: header.name, value: header.value) }
        // Without a length NIOHTTP1 would send the body chunked; a bodiless POST or PUT says 0, as NH expects.
        if !request.body.isEmpty || request.method == .post || request.method == .put || request.method == .patch {
            headers.add(name: "Content-Length", value: String(request.body.count))
        }
        let head = HTTPRequestHead(
            version: .http1_1, method: HTTPMethod(rawValue: request.method.rawValue), uri: target, headers: headers)
        let body = request.body.isEmpty ? nil : ByteBuffer(bytes: request.body)
        let pool = self.pool
        let promise = pool.loop.makePromise(of: AttemptOutcome.self)
        if pool.loop.inEventLoop {
            pool.start(Exchange(origin: origin, head: head, body: body, promise: promise))
        } else {
            pool.loop.execute { pool.start(Exchange(origin: origin, head: head, body: body, promise: promise)) }
        }
        do {
            return try await promise.futureResult.get()
        } catch {
            // The pool only ever succeeds the promise; a failed one means the loop shut down under it.
            return .notSent(Self.reason(error))
        }
    }

    /// Closes every connection; call once at the end of a run.
    package func shutdown() async {
        let pool = self.pool
        try? await pool.loop.flatSubmit { pool.shutdown() }.get()
        try? await group?.shutdownGracefully()
    }
}
