import Foundation
import HubExpressions
import HubWire
import PipelineCore
import RunStore

/// Decodes `send`'s options, reporting every problem with its YAML location before anything runs.
struct SendOptionsDecoder {
    /// The values, read against their declarations.
    let values: SendOptions
    /// Where problems are reported.
    let options: OptionReader
    let context: BuildContext

    /// Decodes and checks everything that can be checked offline: the audience against NH's limits,
    /// the format against the template's platform, every direct handle, conflicting options.
    func decode() -> SendStep? {
        let errorsBefore = options.diagnostics.errorCount
        let hub = values.hub
        let format = values.format
        let properties = values.properties.values(reporting: options, in: context)
        let template = values.template
        let target = values.$format.isRefused ? nil : decodeTarget(format: format)
        let headers = values.headers.map { HubHeader($0.key, $0.value) }
        if let node = values.$headers.node {
            for problem in headers.compactMap(\.unwritable) {
                options.error(
                    problem, at: node, hint: "write the header's name and value on one line, without control characters"
                )
            }
        }
        let test = values.test
        let schedule = decodeSchedule()
        let batch = values.batch.settings
        if let key = batch.idempotencyKey, !key.isConstant, let node = values.batch.$idempotencyKey.node {
            options.error(
                "'\(values.batch.$idempotencyKey.key)' reads \(key.propertyNames.map { "$(\($0))" }.joined(separator: ", ")), but only for-each sends have rows",
                at: node, hint: "write a fixed key, e.g. \"weekly-2026-48\", or add `for-each: <rows file>`")
        }
        if values.$format.isRefused { return nil }
        checkFormat(format, template: template, target: target)
        let isDirect =
            switch target {
            case .direct, .directFile: true
            default: false
            }
        if test, let node = values.$test.node, isDirect {
            options.error("a test send goes to an audience or to everyone, not to direct handles", at: node)
        }
        if test, schedule != nil, let node = values.$test.node {
            options.error("a test send cannot be scheduled", at: node)
        }
        if schedule != nil, isDirect, let node = values.$schedule.node {
            options.error("direct sends cannot be scheduled", at: node)
        }
        if let template, let properties { _ = options.checkProperties(properties.keys, for: template) }
        let policy = values.retry.policy(ambiguous: values.retryAmbiguous)
        guard options.diagnostics.errorCount == errorsBefore, let hub, let target, let properties,
            template != nil || format == "template"
        else { return nil }
        var step = SendStep(
            hub: hub, format: format, target: target, template: template, properties: properties,
            headers: headers, test: test, schedule: schedule, policy: policy)
        step.idempotencyKey = batch.idempotencyKey
        step.dedupeWindow = batch.dedupeWindow
        return step
    }

    /// A template send takes no `template:` and no handles; a native one needs a template of its format.
    func checkFormat(_ format: String, template: TemplateDeclaration?, target: SendStep.Target?) {
        guard format == "template" else {
            if values.$template.node == nil, !options.isUnresolved(values.$template.key) {
                options.error(
                    "a native send needs `template:`, the pipeline template rendered into the payload",
                    at: options.node,
                    hint: "add `template: <name>` (a template whose platform sends as '\(format)')")
            } else if let template, template.platform.notificationFormat != format {
                options.error(
                    "template '\(template.name)' is for \(template.platform.displayName), which sends as '\(template.platform.notificationFormat)', not '\(format)'",
                    at: values.$template.node ?? options.node,
                    hint: "set `format: \(template.platform.notificationFormat)`")
            }
            return
        }
        if let node = values.$template.node {
            options.error(
                "'template' is for native formats; a template send uses the templates devices registered", at: node,
                hint: "remove `template:`, or set `format:` to the template's native format")
        }
        if let given = [values.$direct, values.$directFile].first(where: { options.contains($0.key) }) {
            options.error(
                "direct sends need a native format; NH renders templates only for registered devices",
                at: given.node ?? options.node,
                hint: "set `format:` (apple, fcmv1, …) and `template:` to render the payload locally")
        }
    }

    /// Exactly one of `audience`, `broadcast: true`, `direct` and `direct-file`.
    private func decodeTarget(format: String) -> SendStep.Target? {
        let broadcast = values.broadcast ?? false
        let targets = [values.$audience, values.$broadcast, values.$direct, values.$directFile].map(\.key)
        let given = targets.filter { key in
            guard options.isGiven(key) else { return false }
            return key != values.$broadcast.key || broadcast
        }
        guard given.count == 1 else {
            // A misspelled target ('audiance') was reported as that: "needs a target" would point at another line.
            if given.isEmpty, targets.contains(where: options.isMisspelled) { return nil }
            let extra = given.dropFirst().first.flatMap { key in options.node.entries?.first { $0.key == key }?.value }
            options.error(
                given.isEmpty
                    ? "a send needs a target"
                    : "give only one of 'audience', 'broadcast: true', 'direct' and 'direct-file'",
                at: extra ?? options.node,
                hint:
                    "write `audience: <name or tag expression>`, `broadcast: true` (every device), `direct: <handle>` or `direct-file: <path>`"
            )
            return nil
        }
        // An unresolved reference was reported already; what it would have named cannot be checked.
        if options.isUnresolved(given[0]) { return nil }
        let platform = PushPlatform.allCases.first { $0.notificationFormat == format }
        switch given[0] {
        case values.$broadcast.key: return .broadcast
        case values.$direct.key: return decodeDirect(platform: platform)
        case values.$directFile.key: return decodeDirectFile(platform: platform)
        default: return decodeAudience()
        }
    }

    /// Inline handles, each checked against the format's platform.
    private func decodeDirect(platform: PushPlatform?) -> SendStep.Target? {
        if values.$direct.isRefused { return nil }
        let handles = values.direct
        guard !handles.isEmpty else {
            options.error("'\(values.$direct.key)' lists no handles", at: values.$direct.node ?? options.node)
            return nil
        }
        var valid = true
        for (handle, node) in handles {
            if let platform, let problem = platform.handleProblem(handle) {
                options.error(problem, at: node)
                valid = false
            }
        }
        return valid ? .direct(handles.map(\.value)) : nil
    }

    /// A handle file: opened and every line checked now, so a bad line stops the send before it starts.
    private func decodeDirectFile(platform: PushPlatform?) -> SendStep.Target? {
        guard let path = values.directFile, let node = values.$directFile.node, let platform else { return nil }
        guard !path.isEmpty else {
            options.error("'direct-file' is an empty path", at: node)
            return nil
        }
        let resolved = node.scalar.map(context.path(of:)) ?? context.path(path)
        // Show the reference as written, never what it resolved to.
        let shown = node.scalar?.hasReferences == true ? node.scalar?.sourceText ?? resolved : resolved
        let file = HandleFile(path: resolved, shown: shown, platform: platform)
        let scan: HandleFile.Scan
        do { scan = try file.scan() } catch {
            options.error(error.message(what: "handle file", name: shown), at: node)
            return nil
        }
        for problem in scan.problems {
            options.diagnostics.error(
                "\(problem.message)", at: SourceLocation(file: shown, line: problem.line, column: 1), step: SendStep.id,
                hint:
                    "one \(platform.displayName) handle per line; fix or remove the line (direct-file at \(node.location))"
            )
        }
        if scan.unlisted > 0 {
            options.error(
                "handle file '\(shown)' has \(scan.unlisted) more bad line\(scan.unlisted == 1 ? "" : "s") not listed",
                at: node)
        }
        if scan.count == 0, scan.problems.isEmpty {
            options.error(
                "handle file '\(shown)' holds no handles", at: node, hint: "one handle per line; # starts a comment")
        }
        return scan.problems.isEmpty && scan.count > 0 ? .directFile(file) : nil
    }

    /// A declared audience, or an inline tag expression checked against NH's limits.
    func decodeAudience() -> SendStep.Target? {
        guard let text = values.audience, let node = values.$audience.node else { return nil }
        if let declared = context.document.audience(text) {
            return declared.expression.map { .audience(name: declared.name, expression: $0) }
        }
        do {
            let expression = try TagExpression(parsing: text)
            if let violation = expression.limitViolation() { throw violation }
            // A misspelt audience name is also a valid one-tag expression: say so rather than send to a stray tag.
            if case .tag = expression.root,
                let close = Suggestion.closest(to: text, in: context.document.audiences.map(\.name))
            {
                options.diagnostics.warning(
                    "'\(text)' is not a declared audience, so it is sent as a tag; did you mean the audience '\(close)'?",
                    at: node.location, step: SendStep.id,
                    hint: "declared audiences are names; tags are matched as written")
            }
            return .audience(name: nil, expression: expression)
        } catch let error as TagExpressionError {
            let names = context.document.audiences.map(\.name)
            let suggestion =
                Suggestion.closest(to: text, in: names).map { "; did you mean the audience '\($0)'?" } ?? ""
            options.error(
                "'audience' is neither a declared audience nor a valid tag expression: \(error.message) (character \(error.column))\(suggestion)",
                at: node, hint: error.hint)
            return nil
        } catch {
            return nil
        }
    }

    /// `2026-11-23T08:00:00Z` (or without zone: UTC) or `in 2h`.
    func decodeSchedule() -> SendStep.Schedule? {
        guard let text = values.schedule, let node = values.$schedule.node else { return nil }
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
