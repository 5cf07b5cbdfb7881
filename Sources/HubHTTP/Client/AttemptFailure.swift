import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTTP1Client {
    /// What an error that ended an attempt says to an operator, secrets aside (no request or header is in it).
    static func reason(_ error: any Error) -> String {
        if let error = error as? ChannelError, case .connectTimeout = error { return "connect timed out" }
        // A TLS handshake that failed sent nothing: the request is written only over an established session.
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
            let text = String(describing: error)
            let reason =
                text.contains("CERTIFICATE_VERIFY_FAILED")
                ? "the hub's certificate is not one this machine trusts"
                : "the TLS handshake failed (\(text))"
            return
                "\(reason); if it comes from a CA of your own (such as `pushline emulator --tls`), set "
                + "\(HubTrust.variable) to that CA's PEM file"
        }
        if let error = error as? NIOConnectionError {
            if error.dnsAAAAError != nil || error.dnsAError != nil, error.connectionErrors.isEmpty {
                return "cannot resolve the hub's host '\(error.host)'"
            }
            let refused = error.connectionErrors.contains {
                ($0.error as? IOError)?.errnoCode == ECONNREFUSED
            }
            if refused { return "connection refused" }
        }
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED { return "connection refused" }
        return String(describing: error)
    }
}

extension TimeAmount {
    /// The amount as a message says it: whole seconds as `10 s`, less as milliseconds.
    var spoken: String {
        nanoseconds % 1_000_000_000 == 0 ? "\(nanoseconds / 1_000_000_000) s" : "\(nanoseconds / 1_000_000) ms"
    }
}
