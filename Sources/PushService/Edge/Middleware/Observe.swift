import Foundation
import HTTPServing
import HTTPTypes
import Hummingbird
import ServiceMetrics
import Tracing

/// The outermost middleware: finds the client's address, answers every refusal as problem+json (the router's own
/// "no such route" too, told apart from a method the route does not take), and writes the access log line, the
/// request metric and the span, all named by the route's template, never by the ids in the path.
struct Observe: RouterMiddleware {
    let clientAddress: ClientAddress
    let allowed: AllowedMethods
    let log: AccessLog
    let metrics: ServiceMetrics

    func handle(
        _ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var context = context
        // Rate limits, sign-in order and the access log's refusal summaries all go by this address.
        context.address = clientAddress.of(peerIP: context.peer.ip, headers: request.headers)
        let route = Self.routeName(request.method, endpoint: context.endpointPath)
        // A span per request when serve is traced; the hub requests and pipeline steps it starts are its children.
        let response = await withSpan("serve \(route)", ofKind: .server) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["http.route"] = route
            let response: Response
            do {
                response = try await next(request, context)
            } catch let problem as Problem {
                response = problem.response
            } catch let error as HTTPError where error.status == .notFound {
                response = unmatched(request).response
            } catch {
                response =
                    Problem(.internalServerError, "Internal Server Error", "the request could not be answered")
                    .response
            }
            let status = Int(response.status.code)
            span.attributes["http.response.status_code"] = status
            if status >= 500 { span.setStatus(SpanStatus(code: .error, message: "answered \(status)")) }
            return response
        }
        let elapsed = ContinuousClock.now - started
        let status = Int(response.status.code)
        log.record(
            method: request.method.rawValue, route: route, status: status, caller: context.notes.caller,
            address: context.address, elapsed: elapsed)
        metrics.request(route: route, status: status, duration: elapsed)
        return response
    }

    /// `GET /v1/runs/{id}`: the method and the template the router matched; HEAD is named as the GET it answers like,
    /// and a request no route took is `unmatched`.
    static func routeName(_ method: HTTPRequest.Method, endpoint: String?) -> String {
        guard let endpoint else { return "unmatched" }
        return "\(method == .head ? "GET" : method.rawValue) \(endpoint)"
    }

    /// 405 with the methods the path's route takes, or 404.
    private func unmatched(_ request: Request) -> Problem {
        let path = request.uri.path
        guard let methods = allowed.methods(forPath: path) else {
            return .notFound("no route \(request.method.rawValue) \(path); see /openapi.json")
        }
        let names = methods.map(\.rawValue).joined(separator: ", ")
        return Problem(
            .methodNotAllowed, "Method Not Allowed", "\(path) answers \(names)", headers: [.allow: names])
    }
}
