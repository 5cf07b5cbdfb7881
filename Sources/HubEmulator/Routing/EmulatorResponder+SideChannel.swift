import Foundation
import HTTPServing

extension EmulatorResponder {
    /// `/_emulator/…`: health and the deliveries log, for tests and operators. No auth, loopback only.
    func sideChannel(_ request: ServedRequest, path: Substring) async throws -> ServedResponse {
        guard request.isLoopbackPeer else {
            throw EmulatorError(403, "The emulator side channel answers loopback clients only.")
        }
        switch (path, request.method) {
        case ("health", .get):
            return response(.ok, contentType: "application/json", body: #"{"status":"ok"}"#)
        case ("deliveries", .get):
            let since = try QueryString(request.query)["since"].map { text in
                guard let value = Int(text) else {
                    throw EmulatorError.badRequest("since must be a delivery id (a number).")
                }
                return value
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let json = String(decoding: try encoder.encode(await store.deliveries(since: since)), as: UTF8.self)
            return response(.ok, contentType: "application/json", body: json)
        case ("deliveries", .delete):
            await store.clearDeliveries()
            return ServedResponse(status: .noContent)
        case (let rest, .get) where rest.hasPrefix("pns-errors/"):
            let id = String(rest.dropFirst("pns-errors/".count))
            guard let errors = await store.pnsErrors(notificationId: id) else {
                throw EmulatorError.notFound("No telemetry for notification '\(id.prefix(128))'.")
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return response(
                .ok, contentType: "application/json", body: String(decoding: try encoder.encode(errors), as: UTF8.self))
        default:
            throw EmulatorError.notFound(
                "The side channel has /_emulator/health, /_emulator/deliveries and /_emulator/pns-errors/{notificationId}."
            )
        }
    }
}
