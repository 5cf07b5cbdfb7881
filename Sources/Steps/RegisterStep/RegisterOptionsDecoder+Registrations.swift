import HubWire
import PipelineCore

extension RegisterOptionsDecoder {
    /// `registrations:`: a list of `{ platform, handle, tags, template, id }`, each checked offline.
    func decodeRegistrations(_ node: ConfigNode) -> RegisterStep.Source? {
        guard let items = node.items else {
            options.error("'registrations' must be a list of { platform, handle, tags, template, id } mappings, found \(node.kindName)",
                          at: node, hint: "e.g. registrations: [{ platform: fcmv1, handle: dGVzdC10b2tlbg, tags: [news] }]")
            return nil
        }
        if items.isEmpty {
            options.diagnostics.warning("'registrations' is an empty list; nothing will be registered", at: node.location, step: options.step)
        }
        var devices: [DeviceWork] = []
        var firstSeen: [String: SourceLocation] = [:]
        var valid = true
        for (offset, item) in items.enumerated() {
            let errorsBefore = errorCount
            let reader = OptionReader(item, specs: RegisterStep.registrationKeys, step: options.step,
                                      what: "registration \(offset + 1)", diagnostics: options.diagnostics)
            guard item.entries != nil, !item.containsUnresolved else { valid = false; continue }
            guard let work = registration(reader), errorCount == errorsBefore else { valid = false; continue }
            if case .register(let job) = work.job, let id = job.id {
                let idNode = reader.node("id") ?? item
                if let first = firstSeen[id] {
                    reader.error("registration id '\(id)' is listed twice (first at \(first))", at: idNode,
                                 hint: "give each registration once; concurrent requests for one id would race")
                    valid = false
                    continue
                }
                firstSeen[id] = idNode.location
            }
            devices.append(work)
        }
        return valid ? .registrations(devices) : nil
    }

    /// One registration; every problem is reported at its field.
    private func registration(_ reader: OptionReader) -> DeviceWork? {
        var platform: PushPlatform?
        if let (text, node) = reader.string("platform") {
            switch DeviceRules.platform(text) {
            case .success(let value): platform = value
            case .failure(let problem): reader.error(problem.message, at: node)
            }
        }
        let handle = reader.string("handle")
        if let platform, let (text, node) = handle, let problem = DeviceRules.handleProblem(text, platform: platform, what: "handle") {
            reader.error(problem, at: node)
        }
        let template = reader.node("template") == nil ? nil : context.template("template", in: reader)
        if let template, let platform, template.platform != platform, let node = reader.node("template") {
            reader.error("template '\(template.name)' is for \(template.platform.rawValue), but the registration's platform is \(platform.rawValue)",
                         at: node, hint: "use a template declared with `platform: \(platform.rawValue)`")
        }
        let tags = reader.stringList("tags") ?? []
        // A registration has one tag list; the template's tags go on it.
        let allTags = InstallationPlan.union(tags.map(\.value), template?.tags ?? [])
        for (position, message) in DeviceRules.tagProblems(allTags) {
            let node = position.flatMap { $0 < tags.count ? tags[$0].node : nil } ?? reader.node("tags") ?? reader.node
            reader.error(message, at: node)
        }
        var id: String?
        if let (text, node) = reader.string("id") {
            if text.isEmpty { reader.error("'id' is empty", at: node, hint: "leave `id` out to get a new registration id") }
            id = text
        }
        guard let platform, let kind = RegistrationDescription.Kind(platform: platform), let (handleText, _) = handle else { return nil }
        if reader.node("template") != nil, template?.body == nil { return nil }
        let headers = (template?.headers ?? [:]).sorted { $0.key < $1.key }.map { RegistrationHeader(name: $0.key, value: $0.value) }
        let description = RegistrationDescription(
            kind: kind, isTemplate: template != nil, handle: handleText, tags: allTags, bodyTemplate: template?.body?.source,
            templateName: template?.name, headers: headers)
        return DeviceWork(device: id ?? handleText, origin: nil, job: .register(RegistrationJob(description: description, id: id)))
    }
}
