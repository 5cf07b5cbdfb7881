import Foundation
import HubExpressions
import HubWire
import PipelineCore

extension SendStep {
    /// Decodes and checks everything that can be checked offline: the audience against NH's limits,
    /// the format against the template's platform, conflicting options.
    public static func build(_ options: OptionReader, in context: BuildContext) -> SendStep? {
        let errorsBefore = options.diagnostics.errorCount
        let hub = context.hub("hub", in: options)
        let format = options.contains("format") ? options.oneOf("format", ["template"] + nativeFormats) : "template"
        let properties = options.templateProperties(in: context)
        let template = options.contains("template") ? context.template("template", in: options) : nil
        let target = decodeTarget(options, in: context)
        let headers = (options.stringMap("headers") ?? []).map { HubHeader($0.key, $0.value) }
        let test = options.bool("test") ?? false
        let schedule = decodeSchedule(options)
        let retries = options.contains("retries") ? options.integer("retries", in: 0...10) : 3
        let policy = RetryPolicy(maxRetries: retries ?? 3, retryAmbiguous: options.bool("retry-ambiguous") ?? false)
        guard let format else { return nil }

        if format == "template" {
            if let node = options.node("template") {
                options.error("'template' is for native formats; a template send uses the templates devices registered", at: node,
                              hint: "remove `template:`, or set `format:` to the template's native format")
            }
            if case .direct = target, let node = options.node("direct") {
                options.error("direct sends need a native format; NH renders templates only for registered devices", at: node,
                              hint: "set `format:` (apple, fcmv1, …) and `template:` to render the payload locally")
            }
        } else if options.node("template") == nil {
            options.error("a native send needs `template:`, the pipeline template rendered into the payload", at: options.node,
                          hint: "add `template: <name>` (a template whose platform sends as '\(format)')")
        } else if let template, template.platform.notificationFormat != format {
            options.error("template '\(template.name)' is for \(template.platform.displayName), which sends as '\(template.platform.notificationFormat)', not '\(format)'",
                          at: options.node("template") ?? options.node, hint: "set `format: \(template.platform.notificationFormat)`")
        }
        if test, let node = options.node("test"), case .direct = target {
            options.error("a test send goes to an audience or to everyone, not to direct handles", at: node)
        }
        if test, schedule != nil, let node = options.node("test") {
            options.error("a test send cannot be scheduled", at: node)
        }
        if schedule != nil, case .direct = target, let node = options.node("schedule") {
            options.error("direct sends cannot be scheduled", at: node)
        }
        guard options.diagnostics.errorCount == errorsBefore, let hub, let target, let properties,
            template != nil || format == "template"
        else { return nil }
        return SendStep(hub: hub, format: format, target: target, template: template, properties: properties,
                        headers: headers, test: test, schedule: schedule, policy: policy)
    }

    /// Exactly one of `audience`, `broadcast: true` and `direct`.
    private static func decodeTarget(_ options: OptionReader, in context: BuildContext) -> Target? {
        let broadcast = options.bool("broadcast") ?? false
        let given = [options.node("audience"), broadcast ? options.node("broadcast") : nil, options.node("direct")].compactMap { $0 }
        guard given.count == 1 else {
            options.error(given.isEmpty ? "a send needs a target" : "give only one of 'audience', 'broadcast: true' and 'direct'",
                          at: given.dropFirst().first ?? options.node,
                          hint: "write `audience: <name or tag expression>`, `broadcast: true` (every device) or `direct: <handle>`")
            return nil
        }
        if broadcast { return .broadcast }
        if options.node("direct") != nil {
            let handles = (options.stringList("direct") ?? []).map(\.value)
            return handles.isEmpty ? nil : .direct(handles)
        }
        guard let (text, node) = options.string("audience") else { return nil }
        if let declared = context.document.audience(text) {
            return declared.expression.map { .audience(name: declared.name, expression: $0) }
        }
        do {
            let expression = try TagExpression(parsing: text)
            if let violation = expression.limitViolation() { throw violation }
            // A misspelt audience name is also a valid one-tag expression: say so rather than send to a stray tag.
            if case .tag = expression.root, let close = Suggestion.closest(to: text, in: context.document.audiences.map(\.name)) {
                options.diagnostics.warning("'\(text)' is not a declared audience, so it is sent as a tag; did you mean the audience '\(close)'?",
                                            at: node.location, step: id, hint: "declared audiences are names; tags are matched as written")
            }
            return .audience(name: nil, expression: expression)
        } catch let error as TagExpressionError {
            let names = context.document.audiences.map(\.name)
            let suggestion = Suggestion.closest(to: text, in: names).map { "; did you mean the audience '\($0)'?" } ?? ""
            options.error("'audience' is neither a declared audience nor a valid tag expression: \(error.message) (character \(error.column))\(suggestion)",
                          at: node, hint: error.hint)
            return nil
        } catch {
            return nil
        }
    }

    /// `2026-11-23T08:00:00Z` (or without zone: UTC) or `in 2h`.
    private static func decodeSchedule(_ options: OptionReader) -> Schedule? {
        guard let (text, node) = options.string("schedule") else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("in ") {
            guard let seconds = ConfigDuration.seconds(String(trimmed.dropFirst(3))), seconds > 0,
                seconds <= NHLimits.maxScheduleAheadSeconds
            else {
                options.error("'schedule' delay must be a duration from 1s to 7d, e.g. in 2h", at: node)
                return nil
            }
            return .after(seconds)
        }
        guard let time = ScheduleTime.parse(trimmed) else {
            options.error("'schedule' must be a UTC time like 2026-11-23T08:00:00Z or a delay like in 2h", at: node)
            return nil
        }
        return .at(time)
    }
}
