import HTTPServing
import Hummingbird

/// Injects the configured faults into the operations they name, each at its rate: an NH error status (with
/// `Retry-After` when given) or a connection dropped without an answer.
struct Faults: RouterMiddleware {
    let rules: [FaultRule]
    let operation: FaultRule.Operation
    let dice: FaultDice

    func handle(
        _ request: Request, context: EmulatorContext,
        next: (Request, EmulatorContext) async throws -> Response
    ) async throws -> Response {
        for rule in rules where rule.matches(operation) && dice.roll() < rule.rate {
            switch rule.effect {
            case .status(let status, let retryAfter):
                throw EmulatorError(status, "Injected fault \(status).", retryAfter: retryAfter)
            case .dropConnection:
                context.peer.drop()
                // Nobody reads this: the connection is gone.
                return Response(status: .ok)
            }
        }
        return try await next(request, context)
    }
}
