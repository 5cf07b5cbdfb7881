import Foundation
import HTTPTypes
import HubWire
import Hummingbird

/// Checks the SAS token for the right the operation needs (§1.5). A token without that right is 403 with an empty
/// body, as the service answered in recorded traffic (§1.6).
struct SASCheck: RouterMiddleware {
    let hub: EmulatorConfiguration.Hub
    let configuration: EmulatorConfiguration
    let now: @Sendable () -> Date
    /// The right a request needs, by method and query (listing registrations needs more than finding one).
    let right: @Sendable (HTTPRequest.Method, ReceivedQuery) -> AccessRight

    func handle(
        _ request: Request, context: EmulatorContext,
        next: (Request, EmulatorContext) async throws -> Response
    ) async throws -> Response {
        let needed = right(request.method, context.query)
        // `<namespace>.servicebus.windows.net` (tokens signed for the real service's host) and the emulator's own
        // host:port (clients sign the URL they call) are both valid audiences.
        let hosts = [
            "\(configuration.namespace).servicebus.windows.net".lowercased(), (request.authority ?? "").lowercased(),
        ]
        let verifier = SASVerifier(policies: hub.policies, acceptedHosts: hosts, clockSkew: configuration.clockSkew)
        do {
            _ = try verifier.verify(
                authorization: request.headers[.authorization], path: request.uri.path, right: needed,
                now: Int64(now().timeIntervalSince1970))
        } catch {
            if case .missingRight = error.kind { throw EmulatorError(403, "") }
            throw EmulatorError(error.status, error.detail)
        }
        return try await next(request, context)
    }
}
