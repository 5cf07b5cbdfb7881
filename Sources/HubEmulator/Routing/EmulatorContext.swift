import HTTPServing
import Hummingbird

/// What the emulator knows about a request beyond its head: the connection, and the API version `HubGate` read.
struct EmulatorContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer (the side channel answers loopback only; a fault may hang up on it).
    let peer: PeerConnection
    /// The request's `api-version`, once `HubGate` checked it.
    var apiVersion = ""

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = PeerConnection(source: source)
    }
}
