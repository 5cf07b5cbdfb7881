import Hummingbird

/// The request context: Hummingbird's core storage plus what the emulator needs from the
/// connection: the peer's address (the side channel is loopback-only) and a way to drop it (a fault).
struct EmulatorContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer's IP address; nil for a Unix domain socket.
    let peerIP: String?
    /// Closes the connection without a response.
    let dropConnection: @Sendable () -> Void

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        let channel = source.channel
        peerIP = channel.remoteAddress?.ipAddress
        dropConnection = { channel.close(promise: nil) }
    }

    /// True when the peer is on this machine.
    var isLoopbackPeer: Bool {
        guard let ip = peerIP else { return true }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
