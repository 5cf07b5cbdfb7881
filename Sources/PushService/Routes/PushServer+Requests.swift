import Foundation
import HTTPTypes
import HubClient
import HubExpressions
import HubWire
import Hummingbird
import PipelineCore

/// The official sample backend's `POST /api/notifications/requests` `{text, action, tags, silent}`: the service
/// file's request template for each platform, rendered with escaping, sent to the tags OR-ed in groups of 20 (NH's
/// limit). An empty tag list is refused: the sample broadcasts to every device then, which no caller should do by
/// leaving a field out. A signed-in user (or a device key) may address only users' identity tags, as the notify
/// policy allows; a sender key may address any valid tag.
extension PushServer {
    struct NotificationRequestBody: Decodable {
        let text: String?
        let action: String?
        let tags: [String]?
        let silent: Bool?
    }

    func notificationRequest(_ request: Request, caller: Caller) async throws(Problem) -> Response {
        // This route sends any text under no sender's name, to up to 1000 tags: a backend's, not a user's.
        guard caller.user == nil || caller.scopes.contains(.admin) else {
            throw .forbidden(
                "this route is for backends (a sender key); users notify each other with POST /api/notifications")
        }
        let body = try await jsonBody.decode(
            request, as: NotificationRequestBody.self, shape: #"{"text", "action", "tags", "silent"}"#)
        let silent = body.silent ?? false
        let text = body.text ?? ""
        let action = body.action ?? ""
        if silent, action.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .badRequest("a silent request needs an action")
        }
        if !silent, text.trimmingCharacters(in: .whitespaces).isEmpty { throw .badRequest("a request needs a text") }
        guard let requested = body.tags, !requested.isEmpty else {
            throw .unprocessable(
                "tags is empty: name the tags to notify; an empty list would broadcast to every device, which this service refuses"
            )
        }
        guard requested.count <= NHLimits.maxDirectBatchHandles else {
            throw .unprocessable(
                "at most \(NHLimits.maxDirectBatchHandles) tags per request; this one has \(requested.count)")
        }
        let targets = try checkedTargets(requested, caller: caller)
        let templates = silent ? settings.silentRequestTemplates : settings.requestTemplates
        guard !templates.isEmpty else {
            throw .badRequest(
                "this service has no \(silent ? "silent " : "")request templates (service.requests in the service file)"
            )
        }
        var notifications: [NotificationRequest] = []
        for (platform, template) in templates.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let compiled = template.body else { continue }
            let rendering = TemplateRendering(
                compiled, properties: ["alertMessage": text, "alertAction": action],
                byteLimit: NHLimits.maxRequestBytes)
            if let error = rendering.error {
                throw .unprocessable("the \(platform.rawValue) notification cannot be sent: \(error.message)")
            }
            let headers = template.headers.sorted { $0.key < $1.key }.map { HubHeader($0.key, $0.value) }
            // NH takes at most 20 tags OR-ed in one expression; more are sent in groups, as the sample does.
            for group in stride(from: 0, to: targets.count, by: NHLimits.maxTagsInOrExpression) {
                let expression = targets[group..<min(group + NHLimits.maxTagsInOrExpression, targets.count)].joined(
                    separator: " || ")
                notifications.append(
                    NotificationRequest(
                        format: platform.notificationFormat, body: Array(rendering.payload.utf8),
                        target: .tags(expression), headers: headers))
            }
        }
        // Every payload is rendered and checked before the first send, so a bad one sends nothing.
        for notification in notifications {
            _ = try await hub.perform(HubRequests.send(notification, at: hub.session.endpoint))
        }
        return Response(status: .ok)
    }

    /// The tags, each a plain valid tag, once each; a user may address users' identity tags only (theirs alone
    /// under `who: self`).
    private func checkedTargets(_ requested: [String], caller: Caller) throws(Problem) -> [String] {
        var targets: [String] = []
        for tag in requested where !targets.contains(tag) {
            if tag.contains(where: { "&|!() ".contains($0) }) {
                throw .unprocessable("'\(tag)' is a tag expression, not a tag")
            }
            if let problem = TagSyntax.problem(with: tag) {
                throw .unprocessable("'\(tag)' is not a valid tag: \(problem)")
            }
            if let user = caller.user {
                guard tags.isIdentityTag(tag) else {
                    throw .forbidden("a user may notify users only ('\(tags.identityPrefix)<user>' tags), not '\(tag)'")
                }
                if settings.notifyPolicy == .selfOnly, tag != tags.identityTag(for: user) {
                    throw .forbidden("this service lets users notify only themselves")
                }
            }
            targets.append(tag)
        }
        return targets
    }
}
