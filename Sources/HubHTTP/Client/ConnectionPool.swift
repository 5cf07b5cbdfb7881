import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The keep-alive connections of one client, at most `perOrigin` to each origin, and the exchanges waiting for one.
///
/// Everything here runs on `loop`: the client hands each exchange over to it and nothing is locked. That is the
/// invariant behind `@unchecked Sendable`, asserted in each entry point.
final class ConnectionPool: @unchecked Sendable {
    let loop: any EventLoop
    private let perOrigin: Int
    private let connectTimeout: TimeAmount
    private let requestTimeout: TimeAmount
    private let trust: HubTrust
    /// Made on the first HTTPS connection: loading the system's trust store is not free, and plain runs skip it.
    private var tlsContext: Result<NIOSSLContext, any Error>?
    private var origins: [HubOrigin: OriginState] = [:]
    private var isShutDown = false

    /// An idle connection older than this is closed rather than used: servers close idle connections (NH's load
    /// balancers after about four minutes), and a request written as one closes is a request of unknown fate.
    static let idleLimit = TimeAmount.seconds(50)

    private struct OriginState {
        /// Connections open or being opened.
        var open = 0
        /// Open connections with no exchange, the most recently used last.
        var idle: [PooledConnection] = []
        /// Exchanges waiting for a connection, in arrival order.
        var waiting = CircularBuffer<Exchange>()
        /// Every open connection, to close them all at shutdown.
        var connections: [ObjectIdentifier: PooledConnection] = [:]
    }

    init(
        loop: any EventLoop, perOrigin: Int, connectTimeout: TimeAmount, requestTimeout: TimeAmount, trust: HubTrust
    ) {
        self.loop = loop
        self.perOrigin = max(1, perOrigin)
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.trust = trust
    }

    /// Takes an exchange: onto an idle connection, a new one, or the queue when the origin has all it may open.
    func start(_ exchange: Exchange) {
        loop.assertInEventLoop()
        guard !isShutDown else { return exchange.complete(.notSent("the HTTP client is shut down")) }
        exchange.deadline = loop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: requestTimeout) { [self] in
            timedOut(exchange)
        }
        if let connection = idleConnection(for: exchange.origin) { return connection.send(exchange) }
        if origins[exchange.origin, default: OriginState()].open < perOrigin {
            return connect(for: exchange)
        }
        origins[exchange.origin]!.waiting.append(exchange)
    }

    /// An exchange on `connection` ended with its response; the connection serves the next in line, waits idle, or
    /// closes when the hub asked it to.
    func finished(_ connection: PooledConnection, reusable: Bool) {
        guard reusable, connection.isOpen, !isShutDown else { return connection.close() }
        if let next = nextWaiting(for: connection.origin) { return connection.send(next) }
        connection.idleSince = .now()
        origins[connection.origin]?.idle.append(connection)
    }

    /// `connection` has closed (its exchange, if any, has been told): its place goes to the next in line.
    func lost(_ connection: PooledConnection) {
        let id = ObjectIdentifier(connection)
        guard origins[connection.origin]?.connections.removeValue(forKey: id) != nil else { return }
        origins[connection.origin]!.idle.removeAll { $0 === connection }
        origins[connection.origin]!.open -= 1
        if let next = nextWaiting(for: connection.origin) { connect(for: next) }
    }

    /// Fails what waits, closes every connection, and completes when all have closed.
    func shutdown() -> EventLoopFuture<Void> {
        loop.assertInEventLoop()
        isShutDown = true
        var closing: [EventLoopFuture<Void>] = []
        for (origin, state) in origins {
            for exchange in state.waiting { exchange.complete(.notSent("the HTTP client is shut down")) }
            origins[origin]?.waiting.removeAll()
            for connection in state.connections.values {
                if let channel = connection.channel { closing.append(channel.closeFuture) }
                connection.close()
            }
        }
        return EventLoopFuture.andAllComplete(closing, on: loop)
    }

    private func idleConnection(for origin: HubOrigin) -> PooledConnection? {
        let now = NIODeadline.now()
        while let connection = origins[origin]?.idle.popLast() {
            if now - connection.idleSince < Self.idleLimit { return connection }
            connection.close()
        }
        return nil
    }

    private func nextWaiting(for origin: HubOrigin) -> Exchange? {
        while let exchange = origins[origin]?.waiting.popFirst() {
            if !exchange.isComplete { return exchange }
        }
        return nil
    }

    /// Opens a connection to the exchange's origin and sends the exchange on it.
    private func connect(for exchange: Exchange) {
        let origin = exchange.origin
        origins[origin, default: OriginState()].open += 1
        let tls: NIOSSLContext?
        do {
            tls = origin.tls ? try tlsContext(trust) : nil
        } catch {
            origins[origin]!.open -= 1
            return exchange.complete(.notSent(HTTP1Client.reason(error)))
        }
        let connection = PooledConnection(origin: origin, pool: self, handshakeLimit: connectTimeout)
        origins[origin]!.connections[ObjectIdentifier(connection)] = connection
        // The initializer runs on this loop; the connection crosses into it bound to the loop.
        let handler = NIOLoopBound(connection, eventLoop: loop)
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls {
                        // SNI names a host, never an address; NIOSSL checks an address against the peer's own.
                        let isAddress = (try? SocketAddress(ipAddress: origin.host, port: 0)) != nil
                        try pipeline.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: isAddress ? nil : origin.host))
                    }
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(handler.value)
                }
            }
        bootstrap.connect(host: origin.host, port: origin.port).assumeIsolatedUnsafeUnchecked().whenComplete {
            [self] result in
            switch result {
            case .success:
                if isShutDown {
                    exchange.complete(.notSent("the HTTP client is shut down"))
                    connection.close()
                } else if exchange.isComplete {
                    // It timed out while the connection was made: the next in line takes the connection.
                    finished(connection, reusable: true)
                } else {
                    connection.send(exchange)
                }
            case .failure(let error):
                dropped(connection, exchange, error)
            }
        }
    }

    /// A connection that could not be made: its exchange was not sent, and the next in line tries again.
    private func dropped(_ connection: PooledConnection, _ exchange: Exchange, _ error: any Error) {
        exchange.complete(.notSent(HTTP1Client.reason(error)))
        lost(connection)
    }

    private func tlsContext(_ trust: HubTrust) throws -> NIOSSLContext {
        if let tlsContext { return try tlsContext.get() }
        let made = Result {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if !trust.certificates.isEmpty {
                configuration.additionalTrustRoots = [.certificates(trust.certificates)]
            }
            return try NIOSSLContext(configuration: configuration)
        }
        tlsContext = made
        return try made.get()
    }

    /// The exchange's time is up: whatever it was waiting for, it ends now, and a connection it was on closes.
    private func timedOut(_ exchange: Exchange) {
        exchange.deadline = nil
        let reason = "no response within \(requestTimeout.spoken)"
        if let connection = exchange.connection {
            exchange.lost(reason)
            connection.abandon(exchange)
        } else {
            exchange.complete(.notSent("\(reason): no connection to \(exchange.origin.authority) was free or made"))
        }
    }
}
