import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
// Only for the log level of Hummingbird's own logger; the servers log through their own handlers.
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import Synchronization
import UnixSignals

/// An HTTP/1.1 (or HTTPS) server for a Hummingbird responder, usually a router: the listening, TLS, response dating,
/// idle timeout and graceful shutdown both of Pushline's servers share.
///
/// `run` serves until SIGINT, SIGTERM or `shutdown()`; then it stops accepting connections and lets requests
/// in flight finish before it returns.
public final class HTTPServer<Context: RequestContext>: Sendable
where Context.Source == ApplicationRequestContextSource {
    private let options: ServerOptions
    private let responder: any HTTPResponder<Context>
    /// The service group of the current `run`, so `shutdown` can end it. One `run` at a time.
    private let serving = Mutex<ServiceGroup?>(nil)
    /// A shutdown asked for before `run` had its group: honoured as soon as it has.
    private let stopRequested = Mutex(false)

    /// A server with `options` that answers with `responder` (a built router).
    public init(options: ServerOptions, responder: some HTTPResponder<Context>) {
        self.options = options
        self.responder = responder
    }

    /// Serves until SIGINT, SIGTERM or `shutdown()`; `onRunning` receives the bound port once listening.
    public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let responder = self.responder
        let port = options.port
        let clock = options.responseClock
        let idle = options.idleTimeout.components
        // A handler per connection: channel handlers are never shared.
        let idleNanoseconds = idle.seconds * 1_000_000_000 + idle.attoseconds / 1_000_000_000
        var server = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: clock.map { [ResponseDating(now: $0)] } ?? [],
                idleTimeout: TimeAmount.nanoseconds(idleNanoseconds)))
        if let tls = options.tls {
            let chain = try NIOSSLCertificate.fromPEMFile(tls.certificateChainFile).map {
                NIOSSLCertificateSource.certificate($0)
            }
            let key = try NIOSSLPrivateKey(file: tls.privateKeyFile, format: .pem)
            server = try .tls(
                server,
                tlsConfiguration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
        }
        var application = Application(
            responder: CallbackResponder { (request: Request, context: Context) in
                var response = try await responder.respond(to: request, context: context)
                // A HEAD answer is the GET answer's head alone, whichever route answered it.
                if request.method == .head { response.body = ResponseBody() }
                return response
            },
            server: server,
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: options.serverName),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) })
        if options.quiet { application.logger.logLevel = Logger.Level.warning }
        let group = ServiceGroup(
            configuration: .init(
                services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: application.logger))
        serving.withLock { $0 = group }
        defer { serving.withLock { $0 = nil } }
        if stopRequested.withLock({ $0 }) { await group.triggerGracefulShutdown() }
        try await group.run()
    }

    /// Ends a `run` as SIGTERM would: no new connections, requests in flight finish.
    public func shutdown() async {
        stopRequested.withLock { $0 = true }
        await serving.withLock { $0 }?.triggerGracefulShutdown()
    }
}
