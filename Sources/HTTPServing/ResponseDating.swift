import Foundation
import HTTPTypes
import HubWire
import NIOCore
import NIOHTTPTypes

/// Dates every response head with a given clock (the emulator's, when it rehearses clock skew).
///
/// Hummingbird stamps `Date` from this machine's clock after the responder returns, so an emulator
/// whose clock is offset (to rehearse clock skew) re-dates the head on its way out. Clients read
/// this header to tell an expired token from a skewed clock, as they do against NH.
final class ResponseDating: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        head.headerFields[.date] = HTTPDate.format(now().timeIntervalSince1970)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
