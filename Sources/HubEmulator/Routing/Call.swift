import HTTPTypes
import HubWire
import Hummingbird

/// One NH request, routed: what its handler reads.
struct Call: Sendable {
    let request: Request
    /// The hub's name as configured.
    let hub: String
    let query: ReceivedQuery
    let apiVersion: String
    /// `http://host:port` (or `https://`) the client called, for Location headers.
    let base: String

    /// A call on `request`; `fallbackHost` names the hub's host when the request names none.
    init(request: Request, context: EmulatorContext, hub: String, scheme: String, fallbackHost: String) {
        self.request = request
        self.hub = hub
        query = context.query
        apiVersion = context.apiVersion
        base = "\(scheme)://\(request.authority ?? fallbackHost)"
    }

    /// The request's header fields.
    var headers: HTTPFields { request.headers }

    /// `base/hub/path?api-version=…` for Location headers and entry ids.
    func url(_ path: String, extraQuery: String = "") -> String {
        "\(base)/\(hub)/\(path)?api-version=\(apiVersion)\(extraQuery)"
    }

    /// `base/hub/path` followed by the request's query as the client sent it: how reads name what they list.
    func urlAsSent(_ path: String) -> String {
        "\(base)/\(hub)/\(path)" + (request.uri.query.map { "?" + $0 } ?? "")
    }

    /// The body; more than `limit` bytes is 413 (NH: the whole send ≤ 64 KB), told apart without reading the rest.
    func body(limit: Int) async throws -> String {
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: limit)
            return String(buffer: buffer)
        } catch {
            throw EmulatorError(413, "The request is larger than \(limit) bytes.")
        }
    }
}

extension Request {
    /// `host[:port]` the client addressed (the `:authority` or `Host`), when given.
    var authority: String? { head.authority ?? headers[HTTPField.Name("Host")!] }
}
