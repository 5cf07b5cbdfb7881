import PipelineCore

extension RegisterOptionsDecoder {
    /// `installations:` as a list of YAML devices (each checked, problems at the field) or a file path.
    func decodeInstallations(_ node: ConfigNode, plan: InstallationPlan) -> RegisterStep.Source? {
        if let scalar = node.scalar { return decodeFile(scalar, at: node, plan: plan) }
        guard let items = node.items else {
            options.error("'installations' must be a list of installations or a path to a .jsonl, .json or .csv file, found \(node.kindName)",
                          at: node, hint: "e.g. installations: [{ installationId: ipad-1, platform: apns, pushChannel: 62BC… }]")
            return nil
        }
        if items.isEmpty {
            options.diagnostics.warning("'installations' is an empty list; nothing will be registered", at: node.location, step: options.step)
        }
        var devices: [DeviceWork] = []
        var firstSeen: [String: SourceLocation] = [:]
        var valid = true
        for (offset, item) in items.enumerated() {
            let errorsBefore = errorCount
            let reader = OptionReader(item, specs: RegisterStep.installationKeys, step: options.step,
                                      what: "installation \(offset + 1)", diagnostics: options.diagnostics)
            // An unresolved reference was reported by the loader; checking its placeholder would only mislead.
            guard item.entries != nil, !item.containsUnresolved else { valid = false; continue }
            var record = DeviceRecord()
            record.installationId = reader.string("installationId")?.value
            record.platform = reader.string("platform")?.value
            record.pushChannel = reader.string("pushChannel")?.value
            record.userId = reader.string("userId")?.value
            let tags = reader.stringList("tags") ?? []
            record.tags = tags.map(\.value)
            let (job, problems) = plan.plan(record)
            for problem in problems {
                reader.error(problem.message, at: Self.node(for: problem.field, in: reader, tags: tags.map(\.node)))
            }
            if let id = record.installationId, !id.isEmpty, let idNode = reader.node("installationId") {
                if let first = firstSeen[id] {
                    reader.error("installation '\(id)' is listed twice (first at \(first))", at: idNode,
                                 hint: "give each device once; concurrent requests for one device would race")
                } else {
                    firstSeen[id] = idNode.location
                }
            }
            guard let job, errorCount == errorsBefore, let id = record.installationId else { valid = false; continue }
            devices.append(DeviceWork(device: id, origin: nil, job: job))
        }
        return valid ? .installations(devices) : nil
    }

    /// A device file: a known extension, and a file that opens (and, for CSV, a valid header).
    private func decodeFile(_ scalar: ConfigScalar, at node: ConfigNode, plan: InstallationPlan) -> RegisterStep.Source? {
        guard !scalar.text.isEmpty else {
            options.error("'installations' is an empty path", at: node)
            return nil
        }
        guard let format = DeviceFile.format(of: scalar.text) else {
            options.error("device file \(scalar.quoted) must end in .jsonl, .json or .csv", at: node,
                          hint: ".jsonl: one JSON object per line; .json: an array of objects; .csv: a header row, then one device per row")
            return nil
        }
        let resolved = context.path(scalar.text)
        // Show the reference as written, never what it resolved to.
        let file = DeviceFile(path: resolved, shown: scalar.hasReferences ? scalar.sourceText : resolved, format: format)
        if let problem = file.precheck() {
            options.error(problem, at: node)
            return nil
        }
        return .installationFile(file, plan: plan)
    }

    /// Errors reported so far, to tell whether a device added any.
    var errorCount: Int {
        options.diagnostics.diagnostics.filter { $0.severity == .error }.count
    }

    /// The node a problem about `field` points at: the value when given, else the device's mapping.
    static func node(for field: InstallationPlan.Field, in reader: OptionReader, tags: [ConfigNode]) -> ConfigNode {
        let key: String
        switch field {
        case .installationId: key = "installationId"
        case .platform: key = "platform"
        case .pushChannel: key = "pushChannel"
        case .userId: key = "userId"
        case .tags: key = "tags"
        case .tag(let position): return position < tags.count ? tags[position] : reader.node("tags") ?? reader.node
        case .device, .templates: return reader.node
        }
        return reader.node(key) ?? reader.node
    }
}
