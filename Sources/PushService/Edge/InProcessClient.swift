import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// Answers requests without a socket, through the whole router and its middleware, as if they came from a given
/// peer: how tests and the request fuzzer drive `pushline serve`. (HEAD answers keep their body here; the server
/// drops it on the way out.)
public struct InProcessClient: Sendable {
    private let responder: RouterResponder<ServeContext>

    /// A client of `server`'s routes.
    public init(_ server: PushServer) {
        responder = server.responder()
    }

    /// The answer to `head` with `body`, from `peerIP`.
    public func answer(_ head: HTTPRequest, body: [UInt8] = [], peerIP: String? = "127.0.0.1") async
        -> (response: HTTPResponse, body: [UInt8])
    {
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
        let context = ServeContext(peerIP: peerIP, logger: Self.logger)
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            // `Observe` answers every error itself; nothing reaches here.
            return (HTTPResponse(status: .internalServerError), [])
        }
        let collector = Collector()
        try? await response.body.write(collector)
        return (response.head, collector.bytes)
    }

    private static let logger = Logger(label: "pushline.serve.in-process")

    private final class Collector: ResponseBodyWriter, Sendable {
        private let stored = Mutex<[UInt8]>([])
        var bytes: [UInt8] { stored.withLock { $0 } }
        func write(_ buffer: ByteBuffer) async throws { stored.withLock { $0 += Array(buffer: buffer) } }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
