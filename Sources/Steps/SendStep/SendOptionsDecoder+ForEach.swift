import BatchEngine
import Foundation
import HubExpressions
import HubWire
import PipelineCore
import RunStore

extension SendOptionsDecoder {
    /// One request per row of `rows` (opened by the engine from `for-each`): the audience, handles and properties
    /// compile as `$(column)` text, and the rows have every column the step reads, when their columns are known.
    func decode(rows source: RowSource) -> SendStep? {
        let errorsBefore = options.diagnostics.errorCount
        let hub = values.hub
        let format = values.format
        let properties = values.properties.values(reporting: options, in: context)
        let template = values.template
        let headers = values.headers.map { HubHeader($0.key, $0.value) }
        let schedule = decodeSchedule()
        // `direct-file` and `test` beside `for-each` were reported when the options were read.
        let batch = values.batch.settings
        if values.$format.isRefused { return nil }
        let target = decodeRowTarget(format: format)
        checkFormat(format, template: template, target: nil)
        let compiled = compileProperties(properties ?? [:])
        if let template, let properties { _ = options.checkProperties(properties.keys, for: template) }
        let policy = values.retry.policy(ambiguous: values.retryAmbiguous)
        guard let hub, let target, let compiled,
            options.diagnostics.errorCount == errorsBefore, template != nil || format == "template"
        else { return nil }
        let plan = RowPlan(
            source: source, target: target, properties: compiled, concurrency: batch.concurrency, rate: batch.rate)
        var step = SendStep(
            hub: hub, format: format, plan: plan, template: template, headers: headers, schedule: schedule,
            policy: policy)
        step.idempotencyKey = batch.idempotencyKey
        step.dedupeWindow = batch.dedupeWindow
        step.badRows = batch.badRows
        step.shardKey = batch.shardKey
        source.checkColumns(step.columnsRead, reporting: options)
        guard options.diagnostics.errorCount == errorsBefore else { return nil }
        return step
    }

    /// Exactly one of `audience`, `broadcast: true` and `direct`, each as `$(column)` text.
    private func decodeRowTarget(format: String) -> RowPlan.Target? {
        let broadcast = values.broadcast ?? false
        let given = [values.$audience, values.$broadcast, values.$direct].filter { source in
            source.node != nil && (source.key != values.$broadcast.key || broadcast)
        }
        guard given.count == 1 else {
            if given.isEmpty, [values.$audience.key, values.$direct.key].contains(where: options.isUnresolved) {
                return nil
            }
            if given.isEmpty,
                [values.$audience.key, values.$broadcast.key, values.$direct.key].contains(where: options.isMisspelled)
            {
                return nil
            }
            options.error(
                given.isEmpty ? "a send needs a target" : "give only one of 'audience', 'broadcast: true' and 'direct'",
                at: given.dropFirst().first?.node ?? options.node,
                hint:
                    "write `audience: \"$UserId:{$(userId)}\"` (a tag expression per row), `broadcast: true` or `direct: $(handle)`"
            )
            return nil
        }
        switch given[0].key {
        case values.$broadcast.key:
            return .broadcast
        case values.$direct.key:
            guard format != "template", !values.$direct.isRefused else { return nil }
            let handles = values.direct
            var templates: [TextTemplate] = []
            for (text, node) in handles {
                do { templates.append(try TextTemplate(compiling: text)) } catch {
                    options.error(
                        "'direct' has a malformed reference: \(error.message) (character \(error.column))", at: node,
                        hint: error.hint)
                }
            }
            return templates.count == handles.count ? .direct(templates) : nil
        default:
            guard let text = values.audience, let node = values.$audience.node else { return nil }
            let template: TextTemplate
            do { template = try TextTemplate(compiling: text) } catch {
                options.error(
                    "'audience' has a malformed reference: \(error.message) (character \(error.column))", at: node,
                    hint: error.hint)
                return nil
            }
            if template.isConstant {
                // No row references: a declared audience or a fixed expression, checked as usual.
                guard case .audience(_, let expression)? = decodeAudience() else { return nil }
                return (try? TextTemplate(compiling: expression.source)).map(RowPlan.Target.audience)
            }
            // With sample values in, the expression must parse; otherwise every row would fail.
            let sample = TemplateProperties(
                Dictionary(uniqueKeysWithValues: template.propertyNames.map { ($0, "sample") }))
            let rendered = template.render(sample)
            do {
                _ = try TagExpression(parsing: rendered)
            } catch {
                options.error(
                    "'audience' is not a valid tag expression even with sample values (\(rendered)): \(error.message)",
                    at: node,
                    hint: error.hint)
                return nil
            }
            return .audience(template)
        }
    }

    private func compileProperties(_ properties: [String: String]) -> [String: TextTemplate]? {
        var compiled: [String: TextTemplate] = [:]
        for (name, text) in properties {
            do { compiled[name] = try TextTemplate(compiling: text) } catch {
                options.error(
                    "property '\(name)' has a malformed reference: \(error.message) (character \(error.column))",
                    at: values.properties.$inline.node ?? values.properties.$file.node ?? options.node, hint: error.hint
                )
            }
        }
        return compiled.count == properties.count ? compiled : nil
    }
}
