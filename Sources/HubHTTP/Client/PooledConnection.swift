import HubWire
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOTLS

/// One keep-alive HTTP/1.1 connection of the pool, and the handler at the end of its pipeline (after NIOHTTP1's
/// codecs, and NIOSSL's handler for HTTPS). It carries one exchange at a time and tells the pool when the exchange
/// ends and when the connection does. It lives on the pool's loop.
final class PooledConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    let origin: HubOrigin
    /// Strong: a channel can outlive every other reference to its pool (a client never shut down), and it tells the
    /// pool when it closes. The pool lets go of the connection then.
    private let pool: ConnectionPool
    private var context: ChannelHandlerContext?
    /// The exchange on this connection, from its request's first byte to its response's last.
    private(set) var exchange: Exchange?
    /// When it last went idle, so the pool closes it before a server's own idle timeout would.
    var idleSince = NIODeadline.now()
    /// Whether the response asked to keep the connection open (HTTP/1.1 does unless it says `close`).
    private var keepAlive = true
    /// The error that ended the connection, to say why its exchange failed.
    private var failure: (any Error)?
    /// False once the connection is closing or closed.
    private(set) var isOpen = true
    /// For HTTPS, how long the connection and its TLS session may take together: NIOSSL has no limit of its own, and
    /// NIO's connect timeout ends at the TCP connection.
    private let handshakeLimit: TimeAmount?
    private var handshakeTimer: Scheduled<Void>?

    init(origin: HubOrigin, pool: ConnectionPool, handshakeLimit: TimeAmount?) {
        self.origin = origin
        self.pool = pool
        self.handshakeLimit = origin.tls ? handshakeLimit : nil
    }

    /// The channel, once the connection is made.
    var channel: (any Channel)? { context?.channel }

    /// Added as the channel is set up, before it connects, so it hears every event of the connection.
    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if let handshakeLimit {
            handshakeTimer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: handshakeLimit) {
                [self] in
                handshakeTimer = nil
                if failure == nil { failure = TLSHandshakeTimeout(limit: handshakeLimit) }
                close()
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        handshakeTimer?.cancel()
        handshakeTimer = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event {
            handshakeTimer?.cancel()
            handshakeTimer = nil
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Writes the exchange's request. The pool hands over an exchange only while the connection is idle.
    func send(_ exchange: Exchange) {
        guard let context, isOpen else {
            exchange.lost("the connection closed before the request was written")
            return
        }
        self.exchange = exchange
        exchange.connection = self
        keepAlive = true
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        if let body = exchange.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        // The promise is kept when the last byte is handed to the socket (after the TLS handshake, for HTTPS):
        // until then nothing reached the hub, and a connection that ends leaves the request unsent.
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolatedUnsafeUnchecked().whenComplete { [self] result in
            switch result {
            case .success: exchange.written = true
            case .failure(let error): writeFailed(exchange, error)
            }
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
    }

    /// The request could not be written (a header NIOHTTP1 refuses, a connection that closed under it): nothing of it
    /// counts as sent, and the connection, out of step now, closes.
    private func writeFailed(_ exchange: Exchange, _ error: any Error) {
        guard self.exchange === exchange else { return }
        self.exchange = nil
        exchange.complete(.notSent(failure.map(HTTP1Client.reason) ?? HTTP1Client.reason(error)))
        close()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let exchange else {
            // An answer to nothing: the connection is out of step, so it is not used again.
            context.close(promise: nil)
            return
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            exchange.status = Int(head.status.code)
            exchange.headers = head.headers.map { HubHeader($0.name, $0.value) }
            keepAlive = head.isKeepAlive
        case .body(let buffer):
            // NH's answers are small (a list page is the largest); beyond the limit the rest is read and dropped.
            let room = HTTP1Client.maxResponseBytes - exchange.bytes.count
            if room > 0 { exchange.bytes += buffer.readableBytesView.prefix(room) }
        case .end:
            self.exchange = nil
            exchange.complete(exchange.response)
            // An answer that came before the request was all written (a hub refusing it early) leaves the connection
            // out of step: it is not used again.
            pool.finished(self, reusable: keepAlive && isOpen && exchange.written)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if failure == nil { failure = error }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        isOpen = false
        handshakeTimer?.cancel()
        handshakeTimer = nil
        let exchange = self.exchange
        self.exchange = nil
        if let exchange {
            exchange.lost(failure.map(HTTP1Client.reason) ?? "the hub closed the connection")
        }
        pool.lost(self)
        context.fireChannelInactive()
    }

    /// Closes the connection; the pool hears of it through `lost`.
    func close() {
        guard isOpen, let context else { return }
        isOpen = false
        context.close(promise: nil)
    }

    /// Gives up the exchange on this connection: the connection closes, since its answer may still come.
    func abandon(_ exchange: Exchange) {
        if self.exchange === exchange { self.exchange = nil }
        close()
    }
}

/// A TLS session that was not set up within the connect limit: nothing was sent over it.
struct TLSHandshakeTimeout: Error, CustomStringConvertible {
    let limit: TimeAmount

    var description: String {
        "the TLS handshake did not complete within \(limit.spoken)"
    }
}
