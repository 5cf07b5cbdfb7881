import Foundation
import HTTPServing

/// The address a request comes from, for rate limits: the peer, or, when the peer is a proxy the service file
/// trusts, the right-most address in `X-Forwarded-For` that is not itself a trusted proxy. Entries left of that are
/// whatever the client wrote and are never believed.
struct ClientAddress: Sendable {
    let trustedProxies: Set<String>

    func of(_ request: ServedRequest) -> String {
        let peer = request.peerIP ?? "local"
        guard trustedProxies.contains(peer) else { return peer }
        let hops = request.headers.values("X-Forwarded-For")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return hops.reversed().first { !trustedProxies.contains($0) } ?? peer
    }
}
