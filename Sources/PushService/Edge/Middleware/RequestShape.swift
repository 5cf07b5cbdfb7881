import HubWire
import Hummingbird

/// Before anything is checked about the caller: every path segment must decode (an id is what the caller meant, and a
/// broken escape matches nothing: 404), and so must the query string (400).
struct RequestShape: RouterMiddleware {
    func handle(
        _ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard path.split(separator: "/").allSatisfy({ PercentCoding.decode(String($0), plusAsSpace: false) != nil })
        else {
            throw Problem.notFound("no route \(request.method.rawValue) \(path); see /openapi.json")
        }
        guard ReceivedQuery(request.uri.query).isValid else {
            throw Problem.badRequest("the query string has a broken %-escape or is not UTF-8")
        }
        return try await next(request, context)
    }
}
