import BatchEngine
import Foundation
import HubExpressions
import HubWire
import PipelineCore
import RowReading

extension SendOptionsDecoder {
    /// `for-each:`: the rows file opens (and a CSV header names every column the step reads), and the
    /// audience, handles and properties compile as `$(column)` text.
    func decodeForEach() -> SendStep? {
        let errorsBefore = options.diagnostics.errorCount
        let hub = context.hub("hub", in: options)
        let format = options.contains("format") ? options.oneOf("format", ["template"] + SendStep.nativeFormats) : "template"
        let properties = options.templateProperties(in: context)
        let template = options.contains("template") ? context.template("template", in: options) : nil
        let headers = (options.stringMap("headers") ?? []).map { HubHeader($0.key, $0.value) }
        let schedule = decodeSchedule()
        let policy = options.retryPolicy()
        let concurrency = options.node("concurrency") != nil ? options.integer("concurrency", in: 1...256) : SendStep.defaultConcurrency
        let rate = options.rate()
        let badRows = options.badRowPolicy()
        let (key, keyFailed) = options.idempotencyKey()
        let window = options.dedupeWindow()
        let (shardKey, shardKeyFailed) = options.shardKey()
        for key in ["direct-file", "test", "cancel"] where options.node(key) != nil {
            options.error("'\(key)' cannot be combined with 'for-each'", at: options.node(key)!,
                          hint: key == "direct-file" ? "put the handles in a column and write `direct: $(column)`" : "remove `\(key)`")
        }
        guard let format else { return nil }
        let target = decodeRowTarget(format: format)
        checkFormat(format, template: template, target: nil)
        let compiled = compileProperties(properties ?? [:])
        if let template, let properties { _ = options.checkProperties(properties.keys, for: template) }
        guard let source = options.rowSource(in: context) else { return nil }
        guard let hub, let target, let compiled, let policy, let concurrency, let window, !keyFailed, !shardKeyFailed,
            options.diagnostics.errorCount == errorsBefore, template != nil || format == "template"
        else { return nil }
        let plan = RowPlan(source: source, target: target, properties: compiled, concurrency: concurrency, rate: rate)
        options.checkColumns(plan.columns + (key?.propertyNames ?? []) + (shardKey.map { [$0] } ?? []), of: source)
        guard options.diagnostics.errorCount == errorsBefore else { return nil }
        var step = SendStep(hub: hub, format: format, plan: plan, template: template, headers: headers, schedule: schedule, policy: policy)
        step.idempotencyKey = key
        step.dedupeWindow = window
        step.badRows = badRows
        step.shardKey = shardKey
        return step
    }

    /// Exactly one of `audience`, `broadcast: true` and `direct`, each as `$(column)` text.
    private func decodeRowTarget(format: String) -> RowPlan.Target? {
        let broadcast = options.bool("broadcast") ?? false
        let given = ["audience", "broadcast", "direct"].filter { key in
            options.node(key) != nil && (key != "broadcast" || broadcast)
        }
        guard given.count == 1 else {
            if given.isEmpty, ["audience", "direct"].contains(where: options.isUnresolved) { return nil }
            options.error(given.isEmpty ? "a send needs a target" : "give only one of 'audience', 'broadcast: true' and 'direct'",
                          at: given.dropFirst().first.flatMap(options.node) ?? options.node,
                          hint: "write `audience: \"$UserId:{$(userId)}\"` (a tag expression per row), `broadcast: true` or `direct: $(handle)`")
            return nil
        }
        switch given[0] {
        case "broadcast":
            return .broadcast
        case "direct":
            guard format != "template", let handles = options.stringList("direct") else { return nil }
            var templates: [TextTemplate] = []
            for (text, node) in handles {
                do { templates.append(try TextTemplate(compiling: text)) } catch {
                    options.error("'direct' has a malformed reference: \(error.message) (character \(error.column))", at: node, hint: error.hint)
                }
            }
            return templates.count == handles.count ? .direct(templates) : nil
        default:
            guard let (text, node) = options.string("audience") else { return nil }
            let template: TextTemplate
            do { template = try TextTemplate(compiling: text) } catch {
                options.error("'audience' has a malformed reference: \(error.message) (character \(error.column))", at: node, hint: error.hint)
                return nil
            }
            if template.isConstant {
                // No row references: a declared audience or a fixed expression, checked as usual.
                guard case .audience(_, let expression)? = decodeAudience() else { return nil }
                return (try? TextTemplate(compiling: expression.source)).map(RowPlan.Target.audience)
            }
            // With sample values in, the expression must parse; otherwise every row would fail.
            let sample = TemplateProperties(Dictionary(uniqueKeysWithValues: template.propertyNames.map { ($0, "sample") }))
            let rendered = template.render(sample)
            do {
                _ = try TagExpression(parsing: rendered)
            } catch {
                options.error("'audience' is not a valid tag expression even with sample values (\(rendered)): \(error.message)", at: node,
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
                options.error("property '\(name)' has a malformed reference: \(error.message) (character \(error.column))",
                              at: options.node("properties") ?? options.node("properties-file") ?? options.node, hint: error.hint)
            }
        }
        return compiled.count == properties.count ? compiled : nil
    }
}
