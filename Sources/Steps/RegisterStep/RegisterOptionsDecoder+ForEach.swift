import HubExpressions
import PipelineCore

extension RegisterOptionsDecoder {
    /// `for-each:` with `installations:` or `registrations:` as a list of entries whose values are
    /// `$(column)` text. Every value must compile, fixed values are checked as for any device, and the rows (opened by
    /// the engine) must have every column the entries read, when their columns are known.
    func decodeRows(
        _ node: ConfigNode, kind key: String, plan: InstallationPlan?, batch: BatchSettings?, from source: RowSource
    ) -> RegisterStep.Source? {
        guard let items = node.items, !items.isEmpty else {
            options.error(
                "with 'for-each', '\(key)' must be a list of entries whose values use $(column)", at: node,
                hint: key == values.$installations.key
                    ? "e.g. installations: [{ installationId: \"$(id)\", platform: apns, pushChannel: \"$(token)\", tags: [\"$(team)\"] }]"
                    : "e.g. registrations: [{ platform: fcmv1, handle: \"$(token)\", tags: [\"$UserId:{$(user)}\"] }]")
            return nil
        }
        var entries: [DeviceTemplate] = []
        var columns: [String] = []
        var valid = true
        for (offset, item) in items.enumerated() {
            let errorsBefore = errorCount
            let what = "\(key.dropLast()) \(offset + 1)"
            let built: (entry: DeviceTemplate, usable: Bool)?
            if key == values.$installations.key {
                let (entry, reader) = options.read(InstallationEntry.self, from: item, what: what)
                guard item.entries != nil, !item.containsUnresolved else {
                    valid = false
                    continue
                }
                built = installationEntry(entry, reader: reader, plan: plan)
            } else {
                let (entry, reader) = options.read(RegistrationEntry.self, from: item, what: what)
                guard item.entries != nil, !item.containsUnresolved else {
                    valid = false
                    continue
                }
                built = registrationEntry(entry, reader: reader)
            }
            // Columns of an entry with other problems are checked too, so every problem shows at once.
            columns += built?.entry.columns ?? []
            guard let built, built.usable, errorCount == errorsBefore else {
                valid = false
                continue
            }
            entries.append(built.entry)
        }
        source.checkColumns(
            columns + (batch?.idempotencyKey?.propertyNames ?? []) + (batch?.shardKey.map { [$0] } ?? []),
            reporting: options)
        return valid ? .rows(source, entries: entries) : nil
    }

    /// An installation entry, and whether every value compiled; nil when the step's plan is invalid.
    private func installationEntry(_ device: InstallationEntry, reader: OptionReader, plan: InstallationPlan?) -> (
        entry: DeviceTemplate, usable: Bool
    )? {
        let (fields, broken) = compiledFields(device.texts, in: reader)
        let tags = compiledTags(device.tags, in: reader)
        guard let plan else { return nil }
        let entry = DeviceTemplate(kind: .installation(plan), fields: fields, tags: tags ?? [])
        // With sample values in, only problems with fixed values hold for every row. A value that did not
        // compile is not fixed: its problem was reported already.
        for problem in plan.plan(entry.record(for: entry.sampleRow)).problems
        where isFixed(problem.field, in: entry) && broken.isDisjoint(with: problem.field.dependsOn)
            && (tags != nil || problem.field.key != device.$tags.key)
        {
            reader.error(problem.message, at: device.node(for: problem.field, item: reader.node))
        }
        return (entry, broken.isEmpty && tags != nil)
    }

    /// A registration entry, and whether every value compiled and its template exists.
    private func registrationEntry(_ device: RegistrationEntry, reader: OptionReader) -> (
        entry: DeviceTemplate, usable: Bool
    )? {
        let (fields, broken) = compiledFields(device.texts, in: reader)
        let tags = compiledTags(device.tags, in: reader)
        let plan = RegistrationPlan(template: device.template)
        let entry = DeviceTemplate(kind: .registration(plan), fields: fields, tags: tags ?? [])
        guard broken.isEmpty, let tags, !device.$template.isRefused, device.$platform.node != nil,
            device.$handle.node != nil
        else { return (entry, false) }
        let sample = entry.sampleRow
        let problems = plan.plan(
            platform: entry.value(device.$platform.key, sample), handle: entry.value(device.$handle.key, sample),
            tags: tags.map { $0.render(sample) }, id: entry.value(device.$id.key, sample)
        ).problems
        for problem in problems {
            let fixed =
                switch problem.field {
                case .platform: entry.isFixed(device.$platform.key)
                case .handle: entry.isFixed(device.$handle.key) && entry.isFixed(device.$platform.key)
                case .template: entry.isFixed(device.$platform.key)
                case .id: entry.isFixed(device.$id.key)
                case .tag(let position): entry.isFixedTag(position)
                case .tags, .registration: true
                }
            if fixed {
                reader.error(
                    problem.message, at: device.node(for: problem.field, item: reader.node), hint: problem.hint)
            }
        }
        return (entry, true)
    }

    /// Whether an installation problem concerns only fixed values.
    private func isFixed(_ field: InstallationPlan.Field, in entry: DeviceTemplate) -> Bool {
        if case .tag(let position) = field { return entry.isFixedTag(position) }
        return field.dependsOn.allSatisfy(entry.isFixed)
    }

    /// The given text values compiled as `$(column)` text, and the keys whose malformed reference was reported.
    private func compiledFields(_ texts: [(key: String, text: String, node: ConfigNode)], in reader: OptionReader)
        -> (fields: [String: TextTemplate], broken: Set<String>)
    {
        var fields: [String: TextTemplate] = [:]
        var broken = Set<String>()
        for (key, text, node) in texts {
            do { fields[key] = try TextTemplate(compiling: text) } catch {
                reader.error(
                    "'\(key)' has a malformed reference: \(error.message) (character \(error.column))", at: node,
                    hint: error.hint)
                broken.insert(key)
            }
        }
        return (fields, broken)
    }

    /// The tags compiled as `$(column)` text; nil when any has a malformed reference (reported).
    private func compiledTags(_ items: [(value: String, node: ConfigNode)], in reader: OptionReader) -> [TextTemplate]?
    {
        var tags: [TextTemplate] = []
        for (text, node) in items {
            do { tags.append(try TextTemplate(compiling: text)) } catch {
                reader.error(
                    "tag '\(text)' has a malformed reference: \(error.message) (character \(error.column))", at: node,
                    hint: error.hint)
            }
        }
        return tags.count == items.count ? tags : nil
    }
}
