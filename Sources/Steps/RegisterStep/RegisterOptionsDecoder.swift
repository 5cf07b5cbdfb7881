import HubExpressions
import HubWire
import PipelineCore

/// Decodes `register`'s options, reporting every problem with its YAML location before anything runs.
struct RegisterOptionsDecoder {
    /// The values, read against their declarations.
    let values: RegisterOptions
    /// Where problems are reported.
    let options: OptionReader
    let context: BuildContext
    /// The rows of `for-each`, opened by the engine; nil without it.
    var rows: RowSource?

    func decode() -> RegisterStep? {
        let errorsBefore = options.diagnostics.errorCount
        let hub = values.hub
        let batch = values.batch
        let attachments = templates()
        let addTags = tagList(values.addTags, at: values.$addTags)
        let removeTags = tagList(values.removeTags, at: values.$removeTags)
        // The mode decides which other keys are allowed; without it their checks would only add noise.
        if values.$mode.isRefused { return nil }
        let mode = values.mode
        var valid = attachments != nil && addTags != nil && removeTags != nil
        let installations = values.installations
        let registrations = values.registrations
        let forEach = rows != nil
        let source: RegisterStep.Source?
        switch (installations, registrations) {
        case (nil, nil):
            let given = options.entries.filter {
                $0.key == values.$installations.key || $0.key == values.$registrations.key
            }
            if given.isEmpty {
                options.error(
                    "give 'installations' or 'registrations'", at: options.node,
                    hint:
                        "`installations:` takes a list of devices or a .jsonl, .json or .csv file; `registrations:` a list"
                )
            }
            // An unresolved reference was reported already; a bare key was not.
            for entry in given where entry.value.isNull {
                options.diagnostics.error(
                    "'\(entry.key)' has no value", at: entry.keyLocation, step: options.step,
                    hint: "give a list of devices or a file path")
            }
            source = nil
        case (.some, .some):
            // Reported when the options were read.
            source = nil
        case (.some(let node), nil):
            valid = checkKeys(for: mode) && valid
            let plan = InstallationPlan(
                mode: mode, attachments: attachments ?? [], addTags: addTags ?? [], removeTags: removeTags ?? [])
            source =
                rows.map { decodeRows(node, kind: values.$installations.key, plan: plan, batch: batch, from: $0) }
                ?? decodeInstallations(node, plan: plan)
        case (nil, .some(let node)):
            for source in [values.$templates, values.$addTags, values.$removeTags] {
                guard let node = source.node else { continue }
                options.error(
                    "'\(source.key)' applies to installations, not registrations", at: node,
                    hint: source.key == values.$templates.key
                        ? "give each registration its own `template:`" : "remove `\(source.key)`")
                valid = false
            }
            if mode == .patch, let node = values.$mode.node {
                options.error(
                    "'mode: patch' applies to installations; registrations are written whole", at: node,
                    hint: "leave `mode` out to create or update registrations, or set `mode: delete`")
                valid = false
            }
            if mode == .delete {
                if forEach, let node = options.node(BatchOptions.forEach) {
                    options.error(
                        "registrations to delete are listed by id in the YAML, not read from rows", at: node,
                        hint: "remove `for-each`, or delete installations from rows instead")
                    valid = false
                }
                source = decodeRegistrationDeletes(node)
            } else {
                source =
                    rows.map { decodeRows(node, kind: values.$registrations.key, plan: nil, batch: batch, from: $0) }
                    ?? decodeRegistrations(node)
            }
        }
        if let node = values.$badRows.node, !forEach, !(installations?.scalar != nil) {
            options.error(
                "'bad-rows' applies to a device or rows file", at: node,
                hint: "devices written in the YAML are checked when the pipeline is validated; remove `bad-rows`")
            valid = false
        }
        guard let hub, let source, valid, options.diagnostics.errorCount == errorsBefore else { return nil }
        var step = RegisterStep(
            hub: hub, mode: mode, concurrency: batch.concurrency, policy: values.retry.policy(), rate: batch.rate,
            source: source)
        step.badRows = batch.badRows
        step.dedupeWindow = batch.dedupeWindow
        step.idempotencyKey = batch.idempotencyKey
        step.shardKey = batch.shardKey
        return step
    }

    /// Keys that only some modes take.
    private func checkKeys(for mode: RegisterMode) -> Bool {
        var valid = true
        if mode != .patch {
            for source in [values.$addTags, values.$removeTags] {
                guard let node = source.node else { continue }
                options.error(
                    "'\(source.key)' applies only with mode: patch", at: node,
                    hint: mode == .put
                        ? "give tags on each installation, or set `mode: patch`" : "remove `\(source.key)`")
                valid = false
            }
        }
        if mode == .delete, let node = values.$templates.node {
            options.error("'templates' cannot be used with mode: delete", at: node, hint: "remove `templates`")
            valid = false
        }
        return valid
    }

    /// `templates:`: declared templates with a compiled body, each once, as installation templates.
    private func templates() -> [InstallationPlan.Attachment]? {
        if values.$templates.isRefused { return nil }
        let names = values.templates
        var attachments: [InstallationPlan.Attachment] = []
        var valid = true
        for (name, node) in names {
            guard let template = context.template(named: name, at: node, in: options) else {
                valid = false
                continue
            }
            if attachments.contains(where: { $0.name == name }) {
                options.error("template '\(name)' is listed twice", at: node)
                valid = false
                continue
            }
            // A body that did not compile was reported where the template is declared.
            guard let body = template.body else {
                valid = false
                continue
            }
            attachments.append(
                InstallationPlan.Attachment(
                    name: name, platform: template.platform,
                    template: InstallationTemplate(
                        body: body.source, headers: template.headers.isEmpty ? nil : template.headers,
                        tags: template.tags.isEmpty ? nil : template.tags)))
        }
        return valid ? attachments : nil
    }

    /// `add-tags:` / `remove-tags:`, each tag valid, at most NH's limit per device.
    private func tagList(_ items: [(value: String, node: ConfigNode)], at source: OptionSource) -> [String]? {
        let key = source.key
        if source.isRefused { return nil }
        let problems = TagSyntax.problems(in: items.map(\.value), limit: NHLimits.maxTagsPerInstallation)
        for (position, message) in problems {
            options.error(
                position == nil ? "'\(key)' has \(message)" : message,
                at: position.map { items[$0].node } ?? source.node ?? options.node,
                hint: position == nil ? nil : "tags may contain only letters, digits and _ @ # . : -")
        }
        return problems.isEmpty ? items.map(\.value) : nil
    }
}
