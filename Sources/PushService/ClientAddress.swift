import Foundation
import HTTPTypes

/// The address a request comes from, for rate limits: the peer, or, when the peer is a proxy the service file
/// trusts, the right-most address in `X-Forwarded-For` that is not itself a trusted proxy. Entries left of that are
/// whatever the client wrote and are never believed.
struct ClientAddress: Sendable {
    let trustedProxies: Set<String>

    /// The address of a request from `peerIP` (nil: a Unix domain socket, or in-process) with `headers`.
    func of(peerIP: String?, headers: HTTPFields) -> String {
        let peer = peerIP ?? "local"
        guard trustedProxies.contains(peer) else { return peer }
        let hops = headers[values: Self.forwardedFor]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return hops.reversed().first { !trustedProxies.contains($0) } ?? peer
    }

    private static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
}
