import Foundation
import HTTPServing
import HTTPTypes
import HubWire
import Hummingbird

/// The outermost middleware: every answer carries a `TrackingId` (the client's, or a new one) and a correlation id,
/// and every refusal is NH's XML error body (§9) — including the router's own "no such route".
struct NHAnswers: RouterMiddleware {
    let emulator: EmulatorResponder

    func handle(
        _ request: Request, context: EmulatorContext,
        next: (Request, EmulatorContext) async throws -> Response
    ) async throws -> Response {
        let trackingId = request.headers[.trackingId] ?? RandomID.uuidString(lowercase: true)
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as EmulatorError {
            response = emulator.errorResponse(error, trackingId: trackingId)
        } catch let error as HTTPError where error.status == .notFound {
            response = emulator.errorResponse(unmatched(request, context: context), trackingId: trackingId)
        } catch {
            // Every NH answer is an EmulatorError; anything else is a bug here, answered as NH answers its own.
            response = emulator.errorResponse(
                EmulatorError(500, "The emulator failed to process the request."), trackingId: trackingId)
        }
        response.headers[.trackingId] = trackingId
        // Today's service gives each answer a correlation id of its own beside the TrackingId (both lower-case GUIDs).
        response.headers[.correlationId] = RandomID.uuidString(lowercase: true)
        return response
    }

    /// Why no route took the request: the side channel's list, a hub the emulator does not host, or a resource
    /// NH does not have.
    private func unmatched(_ request: Request, context: EmulatorContext) -> EmulatorError {
        let path = Substring(request.uri.path)
        if path.lowercased().hasPrefix("/_emulator/") {
            guard context.peer.isLoopback else { return LoopbackOnly.refusal }
            return EmulatorError.notFound(
                "The side channel has /_emulator/health, /_emulator/deliveries and /_emulator/pns-errors/{notificationId}."
            )
        }
        guard emulator.configuration.hub(forPath: path) != nil else {
            return EmulatorError.notFound("No service is hosted at the specified address.")
        }
        return EmulatorError.notFound("No such resource: \(request.uri.path)")
    }
}

extension HTTPField.Name {
    static let trackingId = HTTPField.Name("TrackingId")!
    static let correlationId = HTTPField.Name("x-ms-correlation-request-id")!
    static let poweredBy = HTTPField.Name("X-Powered-By")!
    static let notificationFormat = HTTPField.Name("ServiceBusNotification-Format")!
    static let notificationTags = HTTPField.Name("ServiceBusNotification-Tags")!
    static let deviceHandle = HTTPField.Name("ServiceBusNotification-DeviceHandle")!
    static let scheduleTime = HTTPField.Name("ServiceBusNotification-ScheduleTime")!
    static let continuationToken = HTTPField.Name("x-ms-continuationtoken")!
}
