import HubWire

extension EmulatorStore {
    /// Gives a written installation's parts their registrations: the native channel and each template keep their
    /// ids across writes, a new template (or a part whose registration was deleted) gets a new id, a removed
    /// template's id is retired, and the ETag moves on. Returns the record, nil for platforms NH keeps no
    /// registrations for (Xiaomi).
    @discardableResult
    func recordRegistrations(of installation: Installation, hub: String) -> InstallationRegistrations? {
        let installationId = installation.installationId
        guard let platform = PushPlatform(caseInsensitive: installation.platform),
            RegistrationDescription.Kind(platform: platform) != nil
        else {
            forgetRegistrations(of: installationId, hub: hub)
            return nil
        }
        let time = atomTimestamp()
        var record =
            hubs[hub]?.installationRegistrations[installationId]
            ?? InstallationRegistrations(nativeID: nil, templateIDs: [:], etag: 0, published: time, updated: time)
        let names = Set((installation.templates ?? [:]).keys)
        for (name, id) in record.templateIDs where !names.contains(name) {
            record.templateIDs[name] = nil
            retire(ownedRegistration: id, hub: hub)
        }
        if record.nativeID == nil {
            let id = makeRegistrationID()
            record.nativeID = id
            installationParts[hub, default: [:]][id] = InstallationPart(installationId: installationId, template: nil)
        }
        for name in names where record.templateIDs[name] == nil {
            let id = makeRegistrationID()
            record.templateIDs[name] = id
            installationParts[hub, default: [:]][id] = InstallationPart(installationId: installationId, template: name)
        }
        record.etag += 1
        record.updated = time
        hubs[hub]?.installationRegistrations[installationId] = record
        return record
    }

    /// Retires every registration id of an installation (it was deleted, or moved to a platform without them).
    func forgetRegistrations(of installationId: String, hub: String) {
        guard let record = hubs[hub]?.installationRegistrations.removeValue(forKey: installationId) else { return }
        for part in record.parts { retire(ownedRegistration: part.id, hub: hub) }
    }

    /// The installation part a registration id stands for, if any.
    func installationPart(_ id: String, hub: String) -> InstallationPart? {
        installationParts[hub]?[id]
    }

    /// An installation's registration as `GET registrations/{id}` returns it.
    func ownedRegistration(_ id: String, hub: String) -> StoredRegistration? {
        guard let (record, description) = ownedDescription(id, hub: hub) else { return nil }
        return StoredRegistration(
            id: id, etag: record.etag, descriptionXML: description.descriptionXML(),
            published: record.published, updated: record.updated)
    }

    /// Deletes one registration of an installation: its target no longer receives sends and the id is retired. The
    /// installation goes once none of its registrations is left (how the SDKs' clean-up of a hub removes it).
    func deleteOwnedRegistration(_ id: String, part: InstallationPart, condition: IfMatch, hub: String)
        throws(EmulatorError)
    {
        guard var record = hubs[hub]?.installationRegistrations[part.installationId],
            let installation = hubs[hub]?.installations[part.installationId]
        else { throw .notFound("") }
        guard condition.matches(record.etag) else {
            throw EmulatorError(412, "The ETag in If-Match does not match the registration's ETag \(record.etag).")
        }
        if let template = part.template { record.templateIDs[template] = nil } else { record.nativeID = nil }
        retire(ownedRegistration: id, hub: hub)
        markDirty()
        guard !record.parts.isEmpty else {
            deleteInstallation(id: part.installationId, hub: hub)
            return
        }
        hubs[hub]?.installationRegistrations[part.installationId] = record
        // Re-index what is left; the installation itself keeps its templates, as its GET shows.
        let targets = ((try? Target.targets(of: installation)) ?? []).filter(record.keeps)
        indexes[hub]?.replace(owner: .installation(part.installationId), with: targets)
    }

    /// Every installation registration of `hub` with its description, for listings.
    func ownedRegistrations(hub: String) -> [(
        id: String, etag: Int, description: RegistrationDescription, published: String, updated: String
    )] {
        (installationParts[hub] ?? [:]).keys.compactMap { id in
            guard let (record, description) = ownedDescription(id, hub: hub) else { return nil }
            return (id, record.etag, description, record.published, record.updated)
        }
    }

    /// Rebuilds the id → part map of a restored hub; installations saved before their registrations were kept get
    /// them now.
    func restoreInstallationParts(hub: String) {
        installationParts[hub] = [:]
        for installation in (hubs[hub]?.installations.values).map(Array.init) ?? [] {
            if let record = hubs[hub]?.installationRegistrations[installation.installationId] {
                for part in record.parts {
                    installationParts[hub]?[part.id] = InstallationPart(
                        installationId: installation.installationId, template: part.template)
                }
            } else if recordRegistrations(of: installation, hub: hub) != nil {
                markDirty()
            }
        }
    }

    private func ownedDescription(_ id: String, hub: String) -> (InstallationRegistrations, RegistrationDescription)? {
        guard let part = installationParts[hub]?[id],
            let record = hubs[hub]?.installationRegistrations[part.installationId],
            let installation = hubs[hub]?.installations[part.installationId],
            let description = installation.registrationDescription(for: part.template, id: id, etag: record.etag)
        else { return nil }
        return (record, description)
    }

    private func retire(ownedRegistration id: String, hub: String) {
        installationParts[hub]?[id] = nil
        hubs[hub]?.retiredRegistrationIDs.insert(id)
    }
}
