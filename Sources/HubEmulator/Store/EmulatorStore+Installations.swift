import HubExpressions
import HubWire

extension EmulatorStore {
    /// Creates or overwrites an installation (PUT).
    func putInstallation(_ installation: Installation, hub: String) throws(EmulatorError) {
        var stored = installation
        // Read-only fields are the service's: normalise them as the real service reports them.
        stored.pushChannelExpired = nil
        stored.expirationTime = nil
        try validate(stored)
        try store(stored, hub: hub)
    }

    /// Applies a JSON-Patch (PATCH); 404 when the installation does not exist.
    func patchInstallation(id: String, operations: [InstallationPatchOperation], hub: String) throws(EmulatorError) {
        guard var installation = hubs[hub]?.installations[id] else { throw .notFound("Installation not found") }
        do {
            try installation.apply(operations)
        } catch {
            throw .badRequest(error.message)
        }
        try validate(installation)
        try store(installation, hub: hub)
    }

    /// The installation as GET returns it: read-only fields filled in, template names among template tags.
    func installation(id: String, hub: String) -> Installation? {
        guard var installation = hubs[hub]?.installations[id] else { return nil }
        installation.pushChannelExpired = hubs[hub]?.expiredChannels.contains(id) == true
        installation.expirationTime = "9999-12-31T23:59:59.9999999Z"
        if var templates = installation.templates {
            for (name, var template) in templates {
                var tags = template.tags ?? []
                if !tags.contains(name) { tags.append(name) }
                template.tags = tags
                templates[name] = template
            }
            installation.templates = templates
        }
        return installation
    }

    /// Deletes an installation; deleting a missing one succeeds too (idempotent).
    func deleteInstallation(id: String, hub: String) {
        guard hubs[hub]?.installations.removeValue(forKey: id) != nil else { return }
        forgetRegistrations(of: id, hub: hub)
        hubs[hub]?.expiredChannels.remove(id)
        indexes[hub]?.remove(owner: .installation(id))
        markDirty()
    }

    private func store(_ installation: Installation, hub: String) throws(EmulatorError) {
        var installation = installation
        if case .handle(let channel) = installation.pushChannel,
            let platform = PushPlatform(caseInsensitive: installation.platform), platform == .wns || platform == .mpns
        {
            installation.pushChannel = .handle(ChannelURI.normalized(channel))
        }
        let targets: [Target]
        do {
            targets = try Target.targets(of: installation)
        } catch {
            throw .badRequest(error.detail)
        }
        hubs[hub]?.installations[installation.installationId] = installation
        // A write is the app's news of its channel: the PNS has not refused this one yet.
        hubs[hub]?.expiredChannels.remove(installation.installationId)
        // Every part has its registration again after a write (one deleted through the registrations API included).
        recordRegistrations(of: installation, hub: hub)
        indexes[hub]?.replace(owner: .installation(installation.installationId), with: targets)
        markDirty()
    }

    /// NH's rules for what a client may store (§3, §6): platform, tags (≤ 60, valid), template names.
    private func validate(_ installation: Installation) throws(EmulatorError) {
        guard !installation.installationId.isEmpty else { throw .badRequest("installationId is required.") }
        guard let platform = PushPlatform(caseInsensitive: installation.platform) else {
            throw .badRequest("The platform '\(installation.platform)' is not supported.")
        }
        if platform == .baidu { throw .badRequest("Installations do not support the baidu platform.") }
        guard !installation.pushChannel.handle.isEmpty else { throw .badRequest("pushChannel is required.") }
        try Self.validateTags(installation.tags ?? [])
        for (name, template) in installation.templates ?? [:] {
            guard !name.isEmpty, name.count <= NHLimits.maxTemplateNameLength else {
                throw .badRequest("Template names must be 1 to \(NHLimits.maxTemplateNameLength) characters.")
            }
            try Self.validateTags(template.tags ?? [])
        }
    }

    /// Tag rules shared by installations and registrations.
    static func validateTags(_ tags: [String]) throws(EmulatorError) {
        guard tags.count <= NHLimits.maxTagsPerInstallation else {
            throw .badRequest(
                "The number of tags (\(tags.count)) exceeds the limit of \(NHLimits.maxTagsPerInstallation).")
        }
        for tag in tags {
            if let problem = TagSyntax.problem(with: tag) { throw .badRequest("Invalid tag: \(problem).") }
        }
    }
}
