import Hummingbird
import NIOCore

/// The connection a request came on: who is at the other end, and a way to hang up without answering.
public struct PeerConnection: Sendable {
    /// The peer's IP address; nil for a Unix domain socket (or a request made in-process).
    public let ip: String?
    private let close: @Sendable () -> Void

    /// The peer of the connection Hummingbird read the request from.
    public init(source: ApplicationRequestContextSource) {
        let channel = source.channel
        ip = channel.remoteAddress?.ipAddress
        close = { channel.close(promise: nil) }
    }

    /// A peer at `ip` whose connection cannot be dropped: requests made in-process, in tests.
    public init(ip: String?) {
        self.ip = ip
        close = {}
    }

    /// A peer at `ip` answered in-process whose dropping is told to `onDrop`: the test runner's emulator, where a
    /// dropped connection is an attempt that got no answer.
    public init(ip: String?, onDrop: @escaping @Sendable () -> Void) {
        self.ip = ip
        close = onDrop
    }

    /// True when the peer is this machine (or a Unix domain socket).
    public var isLoopback: Bool {
        guard let ip else { return true }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }

    /// Closes the connection without answering (the emulator's dropped-connection fault).
    public func drop() { close() }
}
