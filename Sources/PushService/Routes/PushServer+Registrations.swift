import Foundation
import HTTPTypes
import HubClient
import HubWire
import Hummingbird

/// The seed tutorial's device routes: `POST /api/register`, `PUT` and `DELETE /api/register/{id}`. A caller sees
/// and changes only registrations that carry its own identity tag; anyone else's answer 404 as if absent.
extension PushServer {
    /// The body of `PUT /api/register/{id}`, as the seed's apps send it (PascalCase).
    struct DeviceRegistration: Decodable {
        let platform: String
        let handle: String
        let tags: [String]?

        enum CodingKeys: String, CodingKey {
            case platform = "Platform"
            case handle = "Handle"
            case tags = "Tags"
        }
    }

    /// Platform names the seed's apps send, and what NH registers them as. `fcm` is what the latest tutorial's
    /// Android app sends; the tutorial maps it to NH's FCM (legacy) registration, named `gcm` here.
    static let platforms: [String: PushPlatform] = [
        "apns": .apns, "fcmv1": .fcmv1, "gcm": .gcm, "fcm": .gcm, "wns": .wns, "mpns": .mpns,
    ]

    func createRegistrationID(_ request: Request, caller: Caller, now: Double) async throws(Problem)
        -> Response
    {
        let user = try deviceUser(caller)
        let handle = ReceivedQuery(request.uri.query)["handle"]
        var id: String?
        if let handle, !handle.isEmpty {
            guard handle.utf8.count <= 4096, !handle.contains(where: \.isNewline) else {
                throw .badRequest("the handle is not a device handle (too long, or it has line breaks)")
            }
            // Only the caller's own registrations for this handle are reused and tidied; another user's are theirs, and
            // those NH lists for an installation (tagged `$InstallationId:{…}`) belong to the installation routes.
            let own = try await registrations(handle: handle).filter {
                $0.installationId == nil && $0.tags.contains(tags.identityTag(for: user))
            }
            id = own.first?.registrationId
            for extra in own.dropFirst() {
                guard let extraID = extra.registrationId else { continue }
                _ = try await hub.perform(
                    HubRequests.deleteRegistration(id: extraID, at: hub.session.endpoint), allowing: [404])
            }
        }
        if id == nil {
            let response = try await hub.perform(HubRequests.createRegistrationID(at: hub.session.endpoint))
            guard let location = response.header("Location"),
                let made = NotificationLocation.notificationId(fromLocation: location),
                !made.isEmpty
            else {
                throw Problem(.badGateway, "Bad Gateway", "the notification hub answered without a registration id")
            }
            issued.issue(made, to: user, now: now)
            id = made
        }
        return .json(.ok, JSONText.quote(id ?? ""))
    }

    func upsertRegistration(_ request: Request, id: String, caller: Caller, now: Double) async throws(Problem)
        -> Response
    {
        let user = try deviceUser(caller)
        try Self.checkRegistrationID(id)
        let update = try await jsonBody.decode(
            request, as: DeviceRegistration.self,
            shape: #"{"Platform": "apns|fcmv1|gcm|wns|mpns", "Handle": "…", "Tags": ["…"]}"#)
        guard let platform = Self.platforms[update.platform.lowercased()],
            let kind = RegistrationDescription.Kind(platform: platform)
        else {
            throw .badRequest("unknown Platform '\(update.platform)'; use apns, fcmv1, gcm, wns or mpns")
        }
        if let problem = platform.handleProblem(update.handle) {
            throw .badRequest("the Handle is not a \(platform.rawValue) handle: \(problem)")
        }
        let registrationTags = try tags.tags(for: user, client: update.tags ?? [])
        try await requireOwnOrIssued(id, user: user, now: now)
        let description = RegistrationDescription(
            kind: kind, isTemplate: false, handle: update.handle, tags: registrationTags)
        let response = try await hub.perform(
            HubRequests.upsertRegistration(description, id: id, at: hub.session.endpoint), allowing: [410])
        if response.status == 410 {
            issued.forget(id)
            throw Problem(.gone, "Gone", "registration \(id) is gone; ask for a new id with POST /api/register")
        }
        issued.forget(id)
        return Response(status: .ok)
    }

    func deleteRegistration(id: String, caller: Caller) async throws(Problem) -> Response {
        let user = try deviceUser(caller)
        try Self.checkRegistrationID(id)
        guard let existing = try await registration(id), existing.installationId == nil,
            existing.tags.contains(tags.identityTag(for: user))
        else { throw .notFound("you have no registration \(id)") }
        _ = try await hub.perform(HubRequests.deleteRegistration(id: id, at: hub.session.endpoint), allowing: [404])
        return Response(status: .ok)
    }

    /// NH's registration ids are letters, digits and dashes; anything else names no registration.
    static func checkRegistrationID(_ id: String) throws(Problem) {
        guard (1...128).contains(id.utf8.count),
            id.unicodeScalars.allSatisfy({
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-"
            })
        else { throw .notFound("there is no registration '\(id.prefix(64))'") }
    }

    /// Device routes act for a user: the identity tag is theirs. A sender key names no user.
    func deviceUser(_ caller: Caller) throws(Problem) -> String {
        guard let user = caller.user else {
            throw .forbidden(
                "devices belong to a user: sign in as one, or use a device key with `user:` in the service file")
        }
        return user
    }

    /// An existing registration must be the caller's (else 404); a new one must be an id issued to the caller
    /// (else 410, so the app asks for a fresh id as it does after any 410).
    private func requireOwnOrIssued(_ id: String, user: String, now: Double) async throws(Problem) {
        if let existing = try await registration(id) {
            // An installation's registration is changed through the installation routes, never as a registration.
            guard existing.installationId == nil, existing.tags.contains(tags.identityTag(for: user)) else {
                throw .notFound("you have no registration \(id)")
            }
            return
        }
        guard issued.isIssued(id, to: user, now: now) else {
            throw Problem(
                .gone, "Gone",
                "registration id \(id) was not issued to you or has expired; ask for a new one with POST /api/register")
        }
    }

    /// The registration `id`, or nil when the hub has none.
    private func registration(_ id: String) async throws(Problem) -> RegistrationDescription? {
        let response = try await hub.perform(
            HubRequests.getRegistration(id: id, at: hub.session.endpoint), allowing: [404])
        guard response.status != 404 else { return nil }
        do {
            return try RegistrationDescription(parsing: String(decoding: response.body, as: UTF8.self))
        } catch {
            throw Problem(
                .badGateway, "Bad Gateway", "the notification hub answered a registration Pushline cannot read")
        }
    }

    /// The registrations for a PNS handle (first 100, as the seed reads them).
    private func registrations(handle: String) async throws(Problem) -> [RegistrationDescription] {
        let response = try await hub.perform(
            HubRequests.registrations(
                handle: handle, tag: nil, top: 100, continuation: nil,
                at: hub.session.endpoint))
        return AtomFeed.entries(in: String(decoding: response.body, as: UTF8.self)).compactMap {
            try? RegistrationDescription(parsing: $0)
        }
    }
}
