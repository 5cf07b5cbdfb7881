import Foundation
import Hummingbird
import PipelineCore

/// Requests per minute from one client address, before any sign-in is checked (429 past it).
struct AddressLimit: RouterMiddleware {
    let limiter: RateLimiter
    let clock: WallClock

    func handle(
        _ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response
    ) async throws -> Response {
        if let wait = limiter.take(context.address, now: clock.now().timeIntervalSince1970) {
            throw Problem.tooManyRequests(
                retryAfter: wait, "too many requests from this address; try again in \(wait) s")
        }
        return try await next(request, context)
    }
}

/// Requests per minute from one signed-in caller, wherever it calls from (429 past it).
struct IdentityLimit: RouterMiddleware {
    let limiter: RateLimiter
    let clock: WallClock

    func handle(
        _ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response
    ) async throws -> Response {
        let caller = try context.caller
        if let wait = limiter.take(caller.kind.rawValue + ":" + caller.name, now: clock.now().timeIntervalSince1970) {
            throw Problem.tooManyRequests(
                retryAfter: wait, "too many requests from \(caller.name); try again in \(wait) s")
        }
        return try await next(request, context)
    }
}
