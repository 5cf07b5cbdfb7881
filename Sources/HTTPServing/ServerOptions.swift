import Foundation

/// Where and how a server listens.
public struct ServerOptions: Sendable {
    /// Host name or address to bind (`127.0.0.1`, `0.0.0.0`, `::`).
    public var host: String
    /// Port to bind; 0 picks a free one (reported to `onRunning`).
    public var port: Int
    /// The `Server` header value.
    public var serverName: String
    /// Logs only warnings and errors of the HTTP library itself.
    public var quiet: Bool
    /// Dates every response's `Date` header with this clock instead of the machine's (an emulator rehearsing
    /// clock skew); nil keeps the library's cached date.
    public var responseClock: (@Sendable () -> Date)?
    /// Closes a keep-alive connection idle this long.
    public var idleTimeout: Duration
    /// Serves HTTPS with this certificate when set; plain HTTP otherwise.
    public var tls: ServerTLS?

    /// Options for a server on `host:port`.
    public init(
        host: String, port: Int, serverName: String, quiet: Bool = false,
        responseClock: (@Sendable () -> Date)? = nil, idleTimeout: Duration = .seconds(60), tls: ServerTLS? = nil
    ) {
        self.host = host
        self.port = port
        self.serverName = serverName
        self.quiet = quiet
        self.responseClock = responseClock
        self.idleTimeout = idleTimeout
        self.tls = tls
    }
}

/// The certificate a server presents: PEM files of the chain (the server's certificate first) and of its key.
public struct ServerTLS: Sendable {
    public var certificateChainFile: String
    public var privateKeyFile: String

    public init(certificateChainFile: String, privateKeyFile: String) {
        self.certificateChainFile = certificateChainFile
        self.privateKeyFile = privateKeyFile
    }
}
