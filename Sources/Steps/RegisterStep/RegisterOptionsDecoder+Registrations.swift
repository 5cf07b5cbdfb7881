import HubWire
import PipelineCore

extension RegisterOptionsDecoder {
    /// `registrations:`: a list of `{ platform, handle, tags, template, id }`, each checked offline.
    func decodeRegistrations(_ node: ConfigNode) -> RegisterStep.Source? {
        let devices = decodeList(
            node, key: values.$registrations.key, entry: RegistrationEntry.self,
            expected: "a list of { platform, handle, tags, template, id } mappings",
            example: "registrations: [{ platform: fcmv1, handle: dGVzdC10b2tlbg, tags: [news] }]"
        ) { entry, reader in
            let work = registration(entry, reader: reader)
            guard case .register(let job)? = work?.job, let id = job.id else { return (work, nil) }
            return (work, (id, entry.$id.node ?? reader.node, "registration id '\(id)'"))
        }
        return devices.map(RegisterStep.Source.registrations)
    }

    /// `registrations:` with `mode: delete`: a list of `{ id }`.
    func decodeRegistrationDeletes(_ node: ConfigNode) -> RegisterStep.Source? {
        let devices = decodeList(
            node, key: values.$registrations.key, entry: RegistrationDeleteEntry.self,
            expected: "a list of { id } mappings (registrations to delete)",
            example: "registrations: [{ id: 7138412281836466052-3339543437946614470-1 }]"
        ) { entry, reader in
            guard let id = entry.id, let idNode = entry.$id.node else { return (nil, nil) }
            guard !id.isEmpty else {
                reader.error("'\(entry.$id.key)' is empty", at: idNode)
                return (nil, nil)
            }
            return (
                DeviceWork(device: id, origin: nil, job: .deleteRegistration(id: id)),
                (id, idNode, "registration id '\(id)'")
            )
        }
        return devices.map(RegisterStep.Source.registrations)
    }

    /// One registration; every problem is reported at its field.
    private func registration(_ entry: RegistrationEntry, reader: OptionReader) -> DeviceWork? {
        let (work, problems) = RegistrationPlan(template: entry.template).plan(
            platform: entry.platform, handle: entry.handle,
            tags: entry.tags.map(\.value), id: entry.id)
        for problem in problems {
            // A missing platform or handle was reported by the reader (both are required).
            if (problem.field == .platform && entry.platform == nil)
                || (problem.field == .handle && entry.handle == nil)
            {
                continue
            }
            reader.error(problem.message, at: entry.node(for: problem.field, item: reader.node), hint: problem.hint)
        }
        // An unknown template was reported where it is named.
        return entry.$template.isRefused ? nil : work
    }
}
