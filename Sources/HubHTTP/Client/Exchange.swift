import HubWire
import NIOCore
import NIOHTTP1

/// One request on its way through the pool: what to write, the response as it arrives, and the promise its outcome
/// completes. It lives on the pool's loop, so nothing in it is locked.
final class Exchange {
    let origin: HubOrigin
    let head: HTTPRequestHead
    let body: ByteBuffer?
    private let promise: EventLoopPromise<AttemptOutcome>
    /// The time limit of the whole attempt, from the moment the pool took it.
    var deadline: Scheduled<Void>?
    /// The connection it was handed to, while it is on one.
    var connection: PooledConnection?
    /// Set once the request's last byte was handed to the socket: from then on the hub may have acted on it.
    var written = false
    private(set) var isComplete = false

    // The response, as it arrives.
    var status = 0
    var headers: [HubHeader] = []
    var bytes: [UInt8] = []

    init(origin: HubOrigin, head: HTTPRequestHead, body: ByteBuffer?, promise: EventLoopPromise<AttemptOutcome>) {
        self.origin = origin
        self.head = head
        self.body = body
        self.promise = promise
    }

    /// Ends the exchange with `outcome`; later calls are ignored (a deadline and a closing connection can race).
    func complete(_ outcome: AttemptOutcome) {
        guard !isComplete else { return }
        isComplete = true
        deadline?.cancel()
        deadline = nil
        connection = nil
        promise.succeed(outcome)
    }

    /// Ends the exchange because its connection ended first: nothing reached the hub unless the request was written.
    func lost(_ reason: String) {
        complete(written ? .noResponse(reason) : .notSent(reason))
    }

    /// The response received so far, as the attempt's outcome.
    var response: AttemptOutcome {
        .response(HubResponse(status: status, headers: headers, body: bytes))
    }
}
