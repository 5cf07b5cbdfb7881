import HTTPServing
import Hummingbird
import HummingbirdAuth
import Logging

/// What `pushline serve` knows about a request beyond its head: the connection, the address rate limits go by, and
/// the caller once authentication found one (hummingbird-auth's identity).
public struct ServeContext: AuthRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer the request came from.
    let peer: PeerConnection
    /// The client's address (`Observe` sets it: the peer, or what a trusted proxy forwarded).
    var address = ""
    /// The signed-in caller, from `Authenticator` on.
    public var identity: Caller?
    /// Written where it is learnt, read by `Observe` once the answer is made: the context is passed down by value.
    let notes = RequestNotes()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = PeerConnection(source: source)
    }

    /// A request made in-process, from `peerIP` (tests and the fuzzer answer requests without a socket).
    init(peerIP: String?, logger: Logger) {
        coreContext = .init(source: InProcess(logger: logger))
        peer = PeerConnection(ip: peerIP)
    }

    private struct InProcess: RequestContextSource {
        let logger: Logger
    }
}
