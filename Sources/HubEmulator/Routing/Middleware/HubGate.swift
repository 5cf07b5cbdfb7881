import HubWire
import Hummingbird

/// `/{hub}`: a request must name an `api-version` (400), which the context carries on. There is a group per hub the
/// emulator hosts, since a hub name may hold `/` and is matched as the path segments it is.
struct HubGate: RouterMiddleware {
    func handle(
        _ request: Request, context: EmulatorContext,
        next: (Request, EmulatorContext) async throws -> Response
    ) async throws -> Response {
        let query = ReceivedQuery(request.uri.query)
        guard let apiVersion = query.value(ignoringCase: "api-version"), !apiVersion.isEmpty
        else {
            throw EmulatorError.badRequest("The api-version query parameter is required.")
        }
        var context = context
        context.apiVersion = apiVersion
        context.query = query
        return try await next(request, context)
    }
}
