import Hummingbird

/// The routes of one scope: a caller without it is refused (403), saying which scope it lacks.
struct RequireScope: RouterMiddleware {
    let scope: Scope

    func handle(
        _ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response
    ) async throws -> Response {
        let caller = try context.caller
        guard caller.scopes.contains(scope) else {
            let who =
                switch caller.kind {
                case .user: "user"
                case .token: "token user"
                case .apiKey: "API key"
                }
            throw Problem.forbidden(
                "this needs the `\(scope.rawValue)` scope, which \(who) '\(caller.name)' does not have")
        }
        return try await next(request, context)
    }
}

extension ServeContext {
    /// The signed-in caller; only routes behind authentication ask, so its absence is a bug, answered 401.
    var caller: Caller {
        get throws(Problem) {
            guard let identity else { throw Problem(.unauthorized, "Unauthorized", "sign in first") }
            return identity
        }
    }
}
