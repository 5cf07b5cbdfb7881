import Foundation
import HubWire
import Hummingbird

extension EmulatorResponder {
    /// `/_emulator/…`: health and the deliveries log, for tests and operators. No auth, loopback only.
    func sideChannel(_ group: RouterGroup<EmulatorContext>) {
        group.get("health") { _, _ in
            response(.ok, contentType: "application/json", body: #"{"status":"ok"}"#)
        }
        group.get("deliveries") { request, _ in
            let since = try ReceivedQuery(request.uri.query).value(ignoringCase: "since").map { text in
                guard let value = Int(text) else {
                    throw EmulatorError.badRequest("since must be a delivery id (a number).")
                }
                return value
            }
            return try json(await store.deliveries(since: since))
        }
        group.delete("deliveries") { _, _ in
            await store.clearDeliveries()
            return Response(status: .noContent)
        }
        group.get("pns-errors/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard let errors = await store.notificationRecord(id: id)?.pnsErrors else {
                throw EmulatorError.notFound("No telemetry for notification '\(id.prefix(128))'.")
            }
            return try json(errors)
        }
    }

    private func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return response(
            .ok, contentType: "application/json", body: String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
