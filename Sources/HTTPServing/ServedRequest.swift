import Foundation

/// One request as a handler sees it: the head, the peer, and a body read on demand up to a limit.
public struct ServedRequest: Sendable {
    /// The method.
    public let method: HTTPMethod
    /// The path as sent, percent-escapes kept (`/myhub/installations/a%2Fb`).
    public let path: String
    /// The query as sent, without `?`; nil when the target had none.
    public let query: String?
    /// The header fields.
    public let headers: HeaderFields
    /// `host[:port]` the client addressed (the `:authority` or `Host`), when given.
    public let authority: String?
    /// The peer's IP address; nil for a Unix domain socket.
    public let peerIP: String?
    private let readBody: @Sendable (Int) async throws -> [UInt8]
    private let drop: @Sendable () -> Void

    /// A request; the server builds these, tests may too.
    public init(
        method: HTTPMethod, path: String, query: String? = nil, headers: HeaderFields = [:], authority: String? = nil,
        peerIP: String? = nil, body: @escaping @Sendable (Int) async throws -> [UInt8] = { _ in [] },
        dropConnection: @escaping @Sendable () -> Void = {}
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.authority = authority
        self.peerIP = peerIP
        readBody = body
        drop = dropConnection
    }

    /// The whole body, read once; more than `limit` bytes throws `BodyTooLarge` without reading the rest into memory.
    public func body(upTo limit: Int) async throws(BodyTooLarge) -> [UInt8] {
        do {
            let bytes = try await readBody(limit)
            guard bytes.count <= limit else { throw BodyTooLarge(limit: limit) }
            return bytes
        } catch let error as BodyTooLarge {
            throw error
        } catch {
            // The only way reading a collected body fails is going past the limit (or the peer leaving, when
            // no answer reaches anyone anyway).
            throw BodyTooLarge(limit: limit)
        }
    }

    /// Closes the connection without answering (the emulator's dropped-connection fault).
    public func dropConnection() { drop() }

    /// True when the peer is this machine (or a Unix domain socket).
    public var isLoopbackPeer: Bool {
        guard let ip = peerIP else { return true }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}

/// A request body longer than the handler accepts.
public struct BodyTooLarge: Error, Sendable, Equatable {
    /// The most bytes accepted.
    public let limit: Int
}
