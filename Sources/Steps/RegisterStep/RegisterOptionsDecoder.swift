import HubExpressions
import HubWire
import PipelineCore

/// Decodes `register`'s options, reporting every problem with its YAML location before anything runs.
struct RegisterOptionsDecoder {
    typealias Keys = RegisterStep.Keys
    let options: OptionReader
    let context: BuildContext

    func decode() -> RegisterStep? {
        let hub = context.hub(Keys.hub, in: options)
        let mode = options.value(Keys.mode)
        let policy = options.retryPolicy()
        let batch = options.batchSettings()
        let window = options.value(Keys.dedupeWindow)
        let attachments = templates()
        let addTags = tagList(Keys.addTags)
        let removeTags = tagList(Keys.removeTags)
        // The mode decides which other keys are allowed; without it their checks would only add noise.
        guard let mode else { return nil }
        var valid = attachments != nil && addTags != nil && removeTags != nil
        let installations = options.node(Keys.installations)
        let registrations = options.node(Keys.registrations)
        let forEach = options.isGiven(BatchOptions.forEach)
        let source: RegisterStep.Source?
        switch (installations, registrations) {
        case (nil, nil):
            let given = options.entries.filter { $0.key == Keys.installations.key || $0.key == Keys.registrations.key }
            if given.isEmpty {
                options.error("give 'installations' or 'registrations'", at: options.node,
                              hint: "`installations:` takes a list of devices or a .jsonl, .json or .csv file; `registrations:` a list")
            }
            // An unresolved reference was reported already; a bare key was not.
            for entry in given where entry.value.isNull {
                options.diagnostics.error("'\(entry.key)' has no value", at: entry.keyLocation, step: options.step,
                                          hint: "give a list of devices or a file path")
            }
            source = nil
        case (.some, .some):
            // Reported when the options were read.
            source = nil
        case (.some(let node), nil):
            valid = checkKeys(for: mode) && valid
            let plan = InstallationPlan(mode: mode, attachments: attachments ?? [], addTags: addTags ?? [], removeTags: removeTags ?? [])
            source = forEach ? decodeRows(node, kind: Keys.installations.key, plan: plan, batch: batch) : decodeInstallations(node, plan: plan)
        case (nil, .some(let node)):
            for key in [Keys.templates.key, Keys.addTags.key, Keys.removeTags.key] where options.node(key) != nil {
                options.error("'\(key)' applies to installations, not registrations", at: options.node(key)!,
                              hint: key == Keys.templates.key ? "give each registration its own `template:`" : "remove `\(key)`")
                valid = false
            }
            if mode == .patch, let node = options.node(Keys.mode) {
                options.error("'mode: patch' applies to installations; registrations are written whole", at: node,
                              hint: "leave `mode` out to create or update registrations, or set `mode: delete`")
                valid = false
            }
            if mode == .delete {
                if forEach, let node = options.node(BatchOptions.forEach) {
                    options.error("registrations to delete are listed by id in the YAML, not read from rows", at: node,
                                  hint: "remove `for-each`, or delete installations from rows instead")
                    valid = false
                }
                source = decodeRegistrationDeletes(node)
            } else {
                source = forEach ? decodeRows(node, kind: Keys.registrations.key, plan: nil, batch: batch) : decodeRegistrations(node)
            }
        }
        if let node = options.node(BatchOptions.badRows), !forEach, !(installations?.scalar != nil) {
            options.error("'bad-rows' applies to a device or rows file", at: node,
                          hint: "devices written in the YAML are checked when the pipeline is validated; remove `bad-rows`")
            valid = false
        }
        guard let hub, let batch, let source, let policy, let window, valid else { return nil }
        var step = RegisterStep(hub: hub, mode: mode, concurrency: batch.concurrency, policy: policy, rate: batch.rate, source: source)
        step.badRows = batch.badRows
        step.dedupeWindow = window
        step.idempotencyKey = batch.idempotencyKey
        step.shardKey = batch.shardKey
        return step
    }

    /// Keys that only some modes take.
    private func checkKeys(for mode: RegisterMode) -> Bool {
        var valid = true
        if mode != .patch {
            for key in [Keys.addTags.key, Keys.removeTags.key] {
                guard let node = options.node(key) else { continue }
                options.error("'\(key)' applies only with mode: patch", at: node,
                              hint: mode == .put ? "give tags on each installation, or set `mode: patch`" : "remove `\(key)`")
                valid = false
            }
        }
        if mode == .delete, let node = options.node(Keys.templates) {
            options.error("'templates' cannot be used with mode: delete", at: node, hint: "remove `templates`")
            valid = false
        }
        return valid
    }

    /// `templates:`: declared templates with a compiled body, each once, as installation templates.
    private func templates() -> [InstallationPlan.Attachment]? {
        guard let names = options.value(Keys.templates) else { return nil }
        var attachments: [InstallationPlan.Attachment] = []
        var valid = true
        for (name, node) in names {
            guard let template = context.template(named: name, at: node, in: options) else { valid = false; continue }
            if attachments.contains(where: { $0.name == name }) {
                options.error("template '\(name)' is listed twice", at: node)
                valid = false
                continue
            }
            // A body that did not compile was reported where the template is declared.
            guard let body = template.body else { valid = false; continue }
            attachments.append(InstallationPlan.Attachment(
                name: name, platform: template.platform,
                template: InstallationTemplate(body: body.source, headers: template.headers.isEmpty ? nil : template.headers,
                                               tags: template.tags.isEmpty ? nil : template.tags)))
        }
        return valid ? attachments : nil
    }

    /// `add-tags:` / `remove-tags:`, each tag valid, at most NH's limit per device.
    private func tagList(_ option: OptionKey<[(value: String, node: ConfigNode)]>) -> [String]? {
        let key = option.key
        guard let items = options.value(option) else { return nil }
        let problems = TagSyntax.problems(in: items.map(\.value), limit: NHLimits.maxTagsPerInstallation)
        for (position, message) in problems {
            options.error(position == nil ? "'\(key)' has \(message)" : message, at: position.map { items[$0].node } ?? options.node(key) ?? options.node,
                          hint: position == nil ? nil : "tags may contain only letters, digits and _ @ # . : -")
        }
        return problems.isEmpty ? items.map(\.value) : nil
    }
}
