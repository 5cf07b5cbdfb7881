import HubWire
import PipelineCore

extension RegisterOptionsDecoder {
    /// `registrations:`: a list of `{ platform, handle, tags, template, id }`, each checked offline.
    func decodeRegistrations(_ node: ConfigNode) -> RegisterStep.Source? {
        let devices = decodeList(node, key: values.$registrations.key, specs: RegisterStep.registrationKeys,
                                 expected: "a list of { platform, handle, tags, template, id } mappings",
                                 example: "registrations: [{ platform: fcmv1, handle: dGVzdC10b2tlbg, tags: [news] }]") { reader in
            let work = registration(reader)
            guard case .register(let job)? = work?.job, let id = job.id else { return (work, nil) }
            return (work, (id, reader.node("id") ?? reader.node, "registration id '\(id)'"))
        }
        return devices.map(RegisterStep.Source.registrations)
    }

    /// `registrations:` with `mode: delete`: a list of `{ id }`.
    func decodeRegistrationDeletes(_ node: ConfigNode) -> RegisterStep.Source? {
        let devices = decodeList(node, key: values.$registrations.key, specs: RegisterStep.registrationDeleteKeys,
                                 expected: "a list of { id } mappings (registrations to delete)",
                                 example: "registrations: [{ id: 7138412281836466052-3339543437946614470-1 }]") { reader in
            guard let (id, idNode) = reader.string("id") else { return (nil, nil) }
            guard !id.isEmpty else {
                reader.error("'id' is empty", at: idNode)
                return (nil, nil)
            }
            return (DeviceWork(device: id, origin: nil, job: .deleteRegistration(id: id)), (id, idNode, "registration id '\(id)'"))
        }
        return devices.map(RegisterStep.Source.registrations)
    }

    /// One registration; every problem is reported at its field.
    private func registration(_ reader: OptionReader) -> DeviceWork? {
        let platform = reader.string("platform")
        let handle = reader.string("handle")
        let template = reader.node("template") == nil ? nil : context.template("template", in: reader)
        let tags = reader.stringList("tags") ?? []
        let id = reader.string("id")
        let (work, problems) = RegistrationPlan(template: template).plan(platform: platform?.value, handle: handle?.value,
                                                                        tags: tags.map(\.value), id: id?.value)
        for problem in problems {
            // A missing platform or handle was reported by the reader (both are required).
            if (problem.field == .platform && platform == nil) || (problem.field == .handle && handle == nil) { continue }
            reader.error(problem.message, at: Self.node(for: problem.field, in: reader, tags: tags.map(\.node)), hint: problem.hint)
        }
        // An unknown template was reported where it is named.
        return reader.node("template") != nil && template == nil ? nil : work
    }

    /// The node a problem about `field` points at: the value when given, else the registration's mapping.
    static func node(for field: RegistrationPlan.Field, in reader: OptionReader, tags: [ConfigNode]) -> ConfigNode {
        switch field {
        case .registration: reader.node
        case .platform: reader.node("platform") ?? reader.node
        case .handle: reader.node("handle") ?? reader.node
        case .tags: reader.node("tags") ?? reader.node
        case .tag(let position): position < tags.count ? tags[position] : reader.node("tags") ?? reader.node
        case .template: reader.node("template") ?? reader.node
        case .id: reader.node("id") ?? reader.node
        }
    }
}
