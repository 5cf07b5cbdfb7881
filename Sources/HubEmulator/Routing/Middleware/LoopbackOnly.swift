import HTTPServing
import Hummingbird

/// The side channel answers clients on this machine only: it has no authentication and shows every payload.
struct LoopbackOnly: RouterMiddleware {
    static let refusal = EmulatorError(403, "The emulator side channel answers loopback clients only.")

    func handle(
        _ request: Request, context: EmulatorContext,
        next: (Request, EmulatorContext) async throws -> Response
    ) async throws -> Response {
        guard context.peer.isLoopback else { throw Self.refusal }
        return try await next(request, context)
    }
}
