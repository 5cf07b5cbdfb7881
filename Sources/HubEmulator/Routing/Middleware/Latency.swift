import Hummingbird

/// Waits the configured latency before an operation it names is handled: a far-away hub, rehearsed.
struct Latency: RouterMiddleware {
    let rule: LatencyRule?
    let operation: FaultRule.Operation

    func handle(
        _ request: Request, context: EmulatorContext,
        next: (Request, EmulatorContext) async throws -> Response
    ) async throws -> Response {
        if let rule, rule.matches(operation) { try? await Task.sleep(for: rule.delay) }
        return try await next(request, context)
    }
}
