import PipelineCore

extension RegisterOptionsDecoder {
    /// `installations:` as a list of YAML devices (each checked, problems at the field) or a file path.
    func decodeInstallations(_ node: ConfigNode, plan: InstallationPlan) -> RegisterStep.Source? {
        if let scalar = node.scalar { return decodeFile(scalar, at: node, plan: plan) }
        let devices = decodeList(
            node, key: values.$installations.key, entry: InstallationEntry.self,
            expected: "a list of installations or a path to a .jsonl, .json or .csv file",
            example: "installations: [{ installationId: ipad-1, platform: apns, pushChannel: 62BC… }]"
        ) { entry, reader in
            var record = DeviceRecord()
            record.installationId = entry.installationId
            record.platform = entry.platform
            record.pushChannel = entry.pushChannel
            record.userId = entry.userId
            record.tags = entry.tags.map(\.value)
            let (job, problems) = plan.plan(record)
            for problem in problems {
                reader.error(problem.message, at: entry.node(for: problem.field, item: reader.node))
            }
            let id = record.installationId.flatMap { $0.isEmpty ? nil : $0 }
            return (
                job.flatMap { job in id.map { DeviceWork(device: $0, origin: nil, job: job) } },
                id.flatMap { id in entry.$installationId.node.map { (id, $0, "installation '\(id)'") } }
            )
        }
        return devices.map(RegisterStep.Source.installations)
    }

    /// A YAML list of devices: each entry read as `Entry` declares it and made by `make`, which reports its
    /// problems and names the entry's identity; an identity given twice is an error (concurrent requests would race).
    func decodeList<Entry: DeclaredOptions>(
        _ node: ConfigNode, key: String, entry: Entry.Type, expected: String, example: String,
        make: (Entry, OptionReader) -> (work: DeviceWork?, identity: (id: String, node: ConfigNode, shown: String)?)
    ) -> [DeviceWork]? {
        guard let items = node.items else {
            options.error("'\(key)' must be \(expected), found \(node.kindName)", at: node, hint: "e.g. \(example)")
            return nil
        }
        if items.isEmpty {
            options.diagnostics.warning(
                "'\(key)' is an empty list; nothing will be registered", at: node.location, step: options.step)
        }
        var devices: [DeviceWork] = []
        var firstSeen: [String: SourceLocation] = [:]
        var valid = true
        for (offset, item) in items.enumerated() {
            let errorsBefore = errorCount
            let (values, reader) = options.read(Entry.self, from: item, what: "\(key.dropLast()) \(offset + 1)")
            // An unresolved reference was reported by the loader; checking its placeholder would only mislead.
            guard item.entries != nil, !item.containsUnresolved else {
                valid = false
                continue
            }
            let (work, identity) = make(values, reader)
            if let identity {
                if let first = firstSeen[identity.id] {
                    reader.error(
                        "\(identity.shown) is listed twice (first at \(first))", at: identity.node,
                        hint: "give each \(key.dropLast()) once; concurrent requests for it would race")
                } else {
                    firstSeen[identity.id] = identity.node.location
                }
            }
            guard let work, errorCount == errorsBefore else {
                valid = false
                continue
            }
            devices.append(work)
        }
        return valid ? devices : nil
    }

    /// A device file: a known extension, and a file that opens (and, for CSV, a valid header).
    private func decodeFile(_ scalar: ConfigScalar, at node: ConfigNode, plan: InstallationPlan) -> RegisterStep.Source?
    {
        guard !scalar.text.isEmpty else {
            options.error("'installations' is an empty path", at: node)
            return nil
        }
        guard let format = DeviceFile.format(of: scalar.text) else {
            options.error(
                "device file \(scalar.quoted) must end in .jsonl, .json or .csv", at: node,
                hint:
                    ".jsonl: one JSON object per line; .json: an array of objects; .csv: a header row, then one device per row"
            )
            return nil
        }
        let resolved = context.path(scalar.text)
        // Show the reference as written, never what it resolved to.
        let file = DeviceFile(
            path: resolved, shown: scalar.hasReferences ? scalar.sourceText : resolved, format: format)
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

}
