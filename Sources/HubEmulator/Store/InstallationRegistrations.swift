import Foundation
import HubWire

/// The registrations NH keeps behind an installation: one for its native channel and one per template, each with an
/// id of its own. `GET registrations` lists them (tagged `$InstallationId:{id}`, `$UserId:{…}` when set, the
/// installation's tags, and for a template its tags and its name), `GET registrations/{id}` reads one, and
/// `DELETE registrations/{id}` removes that one target, as the .NET SDK's recorded traffic shows.
struct InstallationRegistrations: Sendable, Codable, Equatable {
    /// The native channel's registration id; nil once that registration was deleted.
    var nativeID: String?
    /// Registration ids by template name.
    var templateIDs: [String: String]
    /// Counts the installation's writes (PUT and PATCH); every one of its registrations carries it as its ETag.
    var etag: Int
    /// When the installation was first stored, and last written.
    var published: String
    var updated: String

    /// Every registration id, with the template it stands for (nil: the native channel).
    var parts: [(id: String, template: String?)] {
        (nativeID.map { [($0, nil)] } ?? []) + templateIDs.sorted { $0.key < $1.key }.map { ($0.value, $0.key) }
    }

    /// True when `target` (one of the installation's targets) still has its registration.
    func keeps(_ target: Target) -> Bool {
        if let template = target.key.template { return templateIDs[template] != nil }
        return nativeID != nil
    }
}

/// Which part of which installation a registration id stands for.
struct InstallationPart: Sendable, Equatable {
    let installationId: String
    /// The template name; nil for the native channel.
    let template: String?
}

extension Installation {
    /// The registration NH lists for one part of this installation; nil for platforms without registrations
    /// (Xiaomi) or a template the installation no longer has.
    func registrationDescription(for template: String?, id: String, etag: Int) -> RegistrationDescription? {
        guard let platform = PushPlatform(caseInsensitive: self.platform),
            let kind = RegistrationDescription.Kind(platform: platform)
        else { return nil }
        var tags = ["$InstallationId:{\(installationId)}"]
        if let userId { tags.append("$UserId:{\(userId)}") }
        tags += self.tags ?? []
        var description = RegistrationDescription(kind: kind, isTemplate: template != nil, handle: pushChannel.handle)
        if let template {
            guard let body = templates?[template] else { return nil }
            tags += (body.tags ?? []) + [template]
            description.bodyTemplate = body.body
            description.templateName = template
            description.expiry = body.expiry
            description.headers = (body.headers ?? [:]).sorted { $0.key < $1.key }.map {
                RegistrationHeader(name: $0.key, value: $0.value)
            }
        }
        if case .browser(_, let p256dh, let auth) = pushChannel {
            description.secondaryFields = ["P256DH": p256dh, "Auth": auth]
        }
        var seen = Set<String>()
        description.tags = tags.filter { seen.insert($0).inserted }
        if let pushVariables, !pushVariables.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            description.pushVariables = (try? encoder.encode(pushVariables)).map { String(decoding: $0, as: UTF8.self) }
        }
        description.registrationId = id
        description.etag = String(etag)
        // The installation's registrations carry the installation's expiration time, written as its GET shows it.
        description.expirationTime = "9999-12-31T23:59:59.9999999Z"
        return description
    }
}
