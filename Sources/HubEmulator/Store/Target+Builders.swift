import HubExpressions
import HubWire

/// Why a device description cannot be stored: becomes a 400 with this detail.
struct TargetError: Error, Equatable {
    let detail: String
}

extension Target {
    /// The targets of an installation: its native channel, and one per template.
    static func targets(of installation: Installation) throws(TargetError) -> [Target] {
        guard let platform = PushPlatform(caseInsensitive: installation.platform) else {
            throw TargetError(detail: "The platform '\(installation.platform)' is not supported.")
        }
        let owner = Key.Owner.installation(installation.installationId)
        var base = Set(installation.tags ?? [])
        base.insert("$InstallationId:{\(installation.installationId)}")
        if let user = installation.userId { base.insert("$UserId:{\(user)}") }
        var result = [
            Target(
                key: Key(owner: owner, template: nil), platform: platform, pushChannel: installation.pushChannel.handle,
                tags: base, template: nil, templateName: nil, headers: [:])
        ]
        for (name, template) in (installation.templates ?? [:]).sorted(by: { $0.key < $1.key }) {
            let compiled: CompiledTemplate
            do {
                compiled = try CompiledTemplate(compiling: template.body)
            } catch {
                throw TargetError(
                    detail:
                        "Template '\(name)' is invalid: \(error.message) (line \(error.line), column \(error.column)).")
            }
            // NH adds the template's name to the template's tags (§3).
            let tags = base.union(template.tags ?? []).union([name])
            result.append(
                Target(
                    key: Key(owner: owner, template: name), platform: platform,
                    pushChannel: installation.pushChannel.handle, tags: tags, template: compiled,
                    templateName: name, headers: template.headers ?? [:]))
        }
        return result
    }

    /// The target of a registration (native or template).
    static func target(of registration: RegistrationDescription, id: String) throws(TargetError) -> Target {
        var compiled: CompiledTemplate?
        if registration.isTemplate {
            guard let body = registration.bodyTemplate else {
                throw TargetError(detail: "A template registration needs a BodyTemplate.")
            }
            do {
                compiled = try CompiledTemplate(compiling: body)
            } catch {
                throw TargetError(
                    detail: "BodyTemplate is invalid: \(error.message) (line \(error.line), column \(error.column)).")
            }
        }
        var headers: [String: String] = [:]
        for header in registration.headers { headers[header.name] = header.value }
        return Target(
            key: Key(owner: .registration(id), template: nil), platform: registration.platform,
            pushChannel: registration.handle, tags: Set(registration.tags), template: compiled,
            templateName: registration.templateName, headers: headers)
    }
}
