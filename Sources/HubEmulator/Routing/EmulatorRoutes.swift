import HTTPTypes
import HubWire
import Hummingbird

extension EmulatorResponder {
    /// Every method a resource answers, 405 included: a method the resource does not serve is still checked for its
    /// hub, API version and token, slowed and faulted, as NH does, before it is refused.
    private static let methods: [HTTPRequest.Method] = [.get, .head, .put, .post, .patch, .delete, .options]

    /// The emulator's routes: the side channel, and NH's data plane under each hub's path (§2–§7), matched without
    /// regard to case as the service does.
    func router() -> Router<EmulatorContext> {
        let router = Router(context: EmulatorContext.self, options: .caseInsensitive)
        router.add(middleware: NHAnswers(emulator: self))
        sideChannel(router.group("_emulator").add(middleware: LoopbackOnly()))
        for hub in configuration.hubs {
            routes(router.group(RouterPath(hub.name)).add(middleware: HubGate()), hub: hub)
        }
        return router
    }

    /// NH's resources under one hub.
    private func routes(_ group: RouterGroup<EmulatorContext>, hub: EmulatorConfiguration.Hub) {
        resource(
            group, hub, "installations/:id", .installation, right: .listen,
            [.put: putInstallation, .patch: patchInstallation, .get: getInstallation, .delete: deleteInstallation])
        resource(
            group, hub, "registrationids", .registration, right: .listen,
            [.post: { call, _ in await createRegistrationID(call) }])
        // Listing every registration needs Manage; finding one device's by handle (`$filter`) needs only Listen.
        resource(
            group, hub, "registrations", .registration,
            right: { method, query in method == .get && !query.has("$filter") ? .manage : .listen },
            [
                .post: { call, _ in try await createRegistration(call) },
                .get: { call, _ in try await listRegistrations(call, tag: nil) },
            ])
        resource(
            group, hub, "registrations/:id", .registration, right: .listen,
            [.put: upsertRegistration, .get: getRegistration, .delete: deleteRegistration])
        resource(
            group, hub, "tags/:id/registrations", .registration, right: .manage,
            [.get: { call, tag in try await listRegistrations(call, tag: tag) }])
        resource(group, hub, "messages", .send, right: .send, [.post: { call, _ in try await send(call) }])
        // Before `messages/:id`: the router takes the first sibling that matches.
        resource(group, hub, "messages/$batch", .send, right: .send, [.post: { call, _ in try await batchSend(call) }])
        resource(group, hub, "messages/:id", .send, right: .manage, [.get: telemetry])
        resource(
            group, hub, "schedulednotifications", .send, right: .send,
            [.post: { call, _ in try await scheduleSend(call) }])
        resource(group, hub, "schedulednotifications/:id", .send, right: .send, [.delete: cancelScheduled])
    }

    /// Answers one NH operation on a resource: the `id` parameter (percent-decoded; "" where the path has none) and
    /// the call.
    typealias Operation = @Sendable (Call, String) async throws -> Response

    private func resource(
        _ group: RouterGroup<EmulatorContext>, _ hub: EmulatorConfiguration.Hub, _ path: RouterPath,
        _ operation: FaultRule.Operation, right: AccessRight, _ handlers: [HTTPRequest.Method: Operation]
    ) {
        resource(group, hub, path, operation, right: { _, _ in right }, handlers)
    }

    private func resource(
        _ hubGroup: RouterGroup<EmulatorContext>, _ hub: EmulatorConfiguration.Hub, _ path: RouterPath,
        _ operation: FaultRule.Operation, right: @escaping @Sendable (HTTPRequest.Method, ReceivedQuery) -> AccessRight,
        _ handlers: [HTTPRequest.Method: Operation]
    ) {
        let group = hubGroup.group(path)
            .add(middleware: SASCheck(hub: hub, configuration: configuration, now: now, right: right))
            .add(middleware: Latency(rule: configuration.latency, operation: operation))
            .add(middleware: Faults(rules: configuration.faults, operation: operation, dice: configuration.faultDice))
        let scheme = scheme
        let host = "\(configuration.namespace).servicebus.windows.net"
        for method in Self.methods {
            let handler = handlers[method]
            group.on("", method: method) { request, context in
                guard let handler else {
                    throw EmulatorError(405, "The method \(method.rawValue) is not allowed on this resource.")
                }
                let call = Call(
                    request: request, context: context, hub: hub.name, scheme: scheme, fallbackHost: host)
                let id = context.parameters.get("id").map { PercentCoding.decode($0, plusAsSpace: false) ?? $0 } ?? ""
                return try await handler(call, id)
            }
        }
    }
}
