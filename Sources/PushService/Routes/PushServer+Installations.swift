import Foundation
import HTTPTypes
import HubClient
import HubWire
import Hummingbird
import RunFlow

/// The official sample backend's device routes (the Flutter, React Native, Xamarin and MAUI tutorials):
/// `PUT /api/notifications/installations` and `DELETE /api/notifications/installations/{id}`. Its apps send an
/// `apikey` header; here that key must be a device key bound to a user (or the caller signs in as one), so an
/// installation always carries its owner's identity tag and `userId`, and one user never touches another's.
extension PushServer {
    /// The sample's installation body (camelCase, as every one of its apps sends it).
    struct DeviceInstallation: Decodable {
        let installationId: String?
        let platform: String?
        let pushChannel: String?
        let tags: [String]?
    }

    /// Platforms the sample's apps send: `apns`, `fcm` (legacy FCM, NH's `gcm`) and, in the MAUI tutorial, `fcmv1`.
    static let installationPlatforms: [String: PushPlatform] = [
        "apns": .apns, "fcm": .gcm, "gcm": .gcm, "fcmv1": .fcmv1, "wns": .wns,
    ]

    func putInstallation(_ request: Request, caller: Caller) async throws(Problem) -> Response {
        let user = try deviceUser(caller)
        let body = try await jsonBody.decode(
            request, as: DeviceInstallation.self,
            shape: #"{"installationId", "platform", "pushChannel", "tags"}"#)
        guard let id = body.installationId, !id.isEmpty else { throw .badRequest("installationId is required") }
        try await saveInstallation(id: id, body: body, user: user)
        return Response(status: .ok)
    }

    /// `PUT /v1/installations/{id}`: the same, with the id in the path (Pushline's own, versioned form).
    func putVersionedInstallation(_ request: Request, id: String, caller: Caller) async throws(Problem)
        -> Response
    {
        let user = try deviceUser(caller)
        let body = try await jsonBody.decode(
            request, as: DeviceInstallation.self, shape: #"{"platform", "pushChannel", "tags"}"#)
        if let inBody = body.installationId, inBody != id {
            throw Problem.field("installationId", "the body's installationId differs from the one in the path")
        }
        try await saveInstallation(id: id, body: body, user: user)
        return Response(status: .ok)
    }

    /// `GET /v1/installations/{id}`: the caller's own installation, as the hub has it.
    func getVersionedInstallation(id: String, caller: Caller) async throws(Problem) -> Response {
        let user = try deviceUser(caller)
        try Self.checkInstallationID(id)
        guard let existing = try await installation(id), existing.isOwned(by: tags.identityTag(for: user), user: user)
        else {
            throw .notFound("you have no installation \(id)")
        }
        struct View: Encodable {
            let installationId: String
            let platform: String
            let pushChannel: String
            let tags: [String]
            let userId: String?
        }
        let view = View(
            installationId: existing.installationId, platform: existing.platform,
            pushChannel: existing.pushChannel.handle,
            tags: existing.tags ?? [], userId: existing.userId)
        return .json(.ok, JSONText.encode(view))
    }

    /// Checks and writes an installation for `user`: their identity tag and `userId` set by the server.
    private func saveInstallation(id: String, body: DeviceInstallation, user: String) async throws(Problem) {
        try Self.checkInstallationID(id)
        guard let platformName = body.platform, !platformName.isEmpty else { throw .badRequest("platform is required") }
        guard let platform = Self.installationPlatforms[platformName.lowercased()] else {
            throw .badRequest("unknown platform '\(platformName)'; use apns, fcm, fcmv1 or wns")
        }
        guard let channel = body.pushChannel, !channel.isEmpty else { throw .badRequest("pushChannel is required") }
        if let problem = platform.handleProblem(channel) {
            throw .badRequest("pushChannel is not a \(platform.rawValue) handle: \(problem)")
        }
        let installationTags = try tags.tags(for: user, client: body.tags ?? [])
        if let existing = try await installation(id), !existing.isOwned(by: tags.identityTag(for: user), user: user) {
            throw .notFound("you have no installation \(id)")
        }
        let installation = Installation(
            installationId: id, platform: platform.rawValue, pushChannel: .handle(channel), userId: user,
            tags: installationTags)
        _ = try await hub.perform(HubRequests.putInstallation(installation, at: hub.session.endpoint))
    }

    func deleteInstallation(id: String, caller: Caller) async throws(Problem) -> Response {
        let user = try deviceUser(caller)
        try Self.checkInstallationID(id)
        guard let existing = try await installation(id), existing.isOwned(by: tags.identityTag(for: user), user: user)
        else {
            throw .notFound("you have no installation \(id)")
        }
        _ = try await hub.perform(HubRequests.deleteInstallation(id: id, at: hub.session.endpoint), allowing: [404])
        return Response(status: .ok)
    }

    /// The installation `id`, or nil when the hub has none.
    private func installation(_ id: String) async throws(Problem) -> Installation? {
        let response = try await hub.perform(
            HubRequests.getInstallation(id: id, at: hub.session.endpoint), allowing: [404])
        guard response.status != 404 else { return nil }
        // NH labels the JSON `application/xml` in recorded traffic; the body is what counts.
        guard let installation = try? JSONDecoder().decode(Installation.self, from: Data(response.body)) else {
            throw Problem(
                .badGateway, "Bad Gateway", "the notification hub answered an installation Pushline cannot read")
        }
        return installation
    }

    /// Installation ids are the app's own (a device id); kept to what fits a URL segment and a log line.
    static func checkInstallationID(_ id: String) throws(Problem) {
        guard id.utf8.count <= 256, id != ".", id != "..",
            !id.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.value < 0x20 || "/?#%\\".unicodeScalars.contains($0)
            })
        else {
            throw .badRequest(
                "installationId must be 1 to 256 characters without spaces, control characters or / ? # % \\, and not . or .."
            )
        }
    }
}

extension Installation {
    /// True when the installation carries the user's identity tag (and, when set, their `userId`).
    func isOwned(by identityTag: String, user: String) -> Bool {
        (tags ?? []).contains(identityTag) && (userId == nil || userId == user)
    }
}
