import Foundation
import HTTPTypes
import HubClient
import HubExpressions
import HubWire
import Hummingbird
import PipelineCore

/// `POST /api/notifications?pns=…&to_tag=<user>`: one user notifies another by name. The payload comes from the
/// template the service file names for the platform, rendered with escaping (`From <sender>: <message>`), and goes
/// to `username:<to_tag>` only, never to a broader audience.
extension PushServer {
    func notifyUser(_ request: Request, caller: Caller) async throws(Problem) -> Response {
        let query = ReceivedQuery(request.uri.query)
        guard let pns = query["pns"], !pns.isEmpty else {
            throw .badRequest("add ?pns=apns|fcmv1|gcm|wns to say which platform to notify")
        }
        guard let platform = Self.platforms[pns.lowercased()] else {
            throw .badRequest("unknown pns '\(pns)'; use apns, fcmv1, gcm, wns or mpns")
        }
        guard let template = settings.notifyTemplates[platform], let compiled = template.body else {
            throw .badRequest("this service has no notification template for \(platform.rawValue)")
        }
        guard let recipient = query["to_tag"], !recipient.isEmpty else {
            throw .badRequest("add &to_tag=<user> to say whom to notify")
        }
        let audience = tags.identityTag(for: recipient)
        guard !recipient.contains(where: { "&|!() ".contains($0) }), TagSyntax.problem(with: audience) == nil else {
            throw .unprocessable("to_tag must be one user name, not '\(recipient)'")
        }
        if settings.notifyPolicy == .selfOnly, let user = caller.user, recipient != user {
            throw .forbidden("this service lets users notify only themselves")
        }
        let bytes = try await jsonBody.bytes(of: request)
        let message: String
        do {
            message = try JSONDecoder().decode(String.self, from: Data(bytes))
        } catch {
            throw .badRequest("the body must be the message as a JSON string, e.g. \"Hello\"")
        }
        guard !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .badRequest("the message is empty")
        }
        let rendering = TemplateRendering(
            compiled, properties: ["sender": caller.user ?? caller.name, "recipient": recipient, "message": message],
            byteLimit: NHLimits.maxRequestBytes)
        if let error = rendering.error { throw .unprocessable("the notification cannot be sent: \(error.message)") }
        let notification = NotificationRequest(
            format: platform.notificationFormat, body: Array(rendering.payload.utf8),
            target: .tags(audience),
            headers: template.headers.sorted { $0.key < $1.key }.map { HubHeader($0.key, $0.value) })
        _ = try await hub.perform(HubRequests.send(notification, at: hub.session.endpoint))
        return Response(status: .ok)
    }
}
