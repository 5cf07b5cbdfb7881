import HTTPServing
import HubWire
import Hummingbird
import Logging

/// What the emulator knows about a request beyond its head: the connection, and the query and API version `HubGate`
/// read (parsed once, for the token check and the handler alike).
struct EmulatorContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer (the side channel answers loopback only; a fault may hang up on it).
    let peer: PeerConnection
    /// The request's `api-version`, once `HubGate` checked it.
    var apiVersion = ""
    /// The request's query, decoded.
    var query = ReceivedQuery(nil)

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = PeerConnection(source: source)
    }

    /// A request answered in-process (`InProcessEmulator`), from `peer`.
    init(peer: PeerConnection, logger: Logger) {
        coreContext = .init(source: InProcess(logger: logger))
        self.peer = peer
    }

    private struct InProcess: RequestContextSource {
        let logger: Logger
    }
}
