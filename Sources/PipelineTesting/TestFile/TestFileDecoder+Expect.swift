import Foundation
import HubExpressions
import PipelineCore
import RunFlow

extension TestFileDecoder {
    /// The statuses `expect: { status: … }` may name: a run's, and `already-completed` for a run that found its work
    /// done and ran nothing.
    static let statuses = [
        "succeeded", "partial", "undelivered", "failed", "interrupted", "rejected", "already-completed",
    ]
    /// The statuses a step may end with.
    static let stepStatuses = ["succeeded", "partial", "failed", "skipped", "interrupted"]
    /// The item counts `expect: { items: … }` may name.
    static let itemStates = ["accepted", "planned", "failed", "unknown", "skipped", "duplicates", "bad"]

    /// `expect:`.
    func decodeExpect(_ node: ConfigNode) -> Expectations {
        var expect = Expectations(location: node.location)
        let reader = OptionReader(node, specs: Keys.Expect.specs, step: nil, what: "expect", diagnostics: diagnostics)
        let keys = Keys.Expect(reading: reader)
        expect.exit = keys.exit
        if let status = keys.status, let statusNode = keys.$status.node {
            if Self.statuses.contains(status) {
                expect.status = status
            } else {
                reader.error(
                    "unknown run status '\(status)'\(Suggestion.didYouMean(status, in: Self.statuses))", at: statusNode,
                    hint: "one of \(Self.statuses.joined(separator: ", "))")
            }
        }
        let stepNodes = keys.$steps.node?.entries ?? []
        for (step, status) in keys.steps {
            let location = stepNodes.first { $0.key == step }?.value.location ?? node.location
            guard Self.stepStatuses.contains(status) else {
                diagnostics.error(
                    "unknown step status '\(status)'\(Suggestion.didYouMean(status, in: Self.stepStatuses))",
                    at: location, hint: "one of \(Self.stepStatuses.joined(separator: ", "))")
                continue
            }
            expect.steps.append(Expected(key: step, value: status, location: location))
        }
        for entry in mapping(keys.outputs, named: "outputs", reader) {
            expect.outputs.append(Expected(key: entry.key, value: JSONValue(entry.value), location: entry.keyLocation))
        }
        for entry in mapping(keys.items, named: "items", reader) {
            let parts = entry.key.split(separator: ".")
            guard parts.count == 2, Self.itemStates.contains(String(parts[1])) else {
                reader.error(
                    "'\(entry.key)' must be a step id and an item state, such as digest.accepted",
                    at: ConfigNode(entry.value.value, at: entry.keyLocation),
                    hint: "states: \(Self.itemStates.joined(separator: ", "))")
                continue
            }
            guard let count = entry.value.scalar.flatMap({ Int($0.text) }), count >= 0 else {
                reader.error("the count of '\(entry.key)' must be a whole number", at: entry.value)
                continue
            }
            expect.items.append(Expected(key: entry.key, value: count, location: entry.keyLocation))
        }
        expect.deliveries = keys.deliveries
        for item in keys.received?.items ?? [] {
            if let delivery = decodeReceived(item) { expect.received.append(delivery) }
        }
        for item in keys.receivedNothing?.items ?? [] {
            if let device = item.scalar?.text, !item.isNull {
                expect.receivedNothing.append(.device(device, item.location))
                continue
            }
            let audienceReader = OptionReader(
                item, specs: Keys.Audience.specs, step: nil, what: "a received-nothing entry", diagnostics: diagnostics)
            guard let expression = Keys.Audience(reading: audienceReader).audience else { continue }
            do {
                _ = try TagExpression(parsing: expression)
                expect.receivedNothing.append(.audience(expression, item.location))
            } catch {
                audienceReader.error("the audience is not a tag expression: \(error)", at: item)
            }
        }
        if let list = keys.diagnostics {
            expect.diagnostics = (list.items ?? []).map { item in
                let problem = Keys.ExpectedProblem(
                    reading: OptionReader(
                        item, specs: Keys.ExpectedProblem.specs, step: nil, what: "an expected diagnostic",
                        diagnostics: diagnostics))
                return ExpectedDiagnostic(
                    message: problem.message, line: problem.line, column: problem.column,
                    severity: problem.severity == "warning" ? .warning : .error, location: item.location)
            }
        }
        return expect
    }

    private func decodeReceived(_ node: ConfigNode) -> ExpectedDelivery? {
        let reader = OptionReader(
            node, specs: Keys.Received.specs, step: nil, what: "a received entry", diagnostics: diagnostics)
        let keys = Keys.Received(reading: reader)
        guard let device = keys.device else { return nil }
        var delivery = ExpectedDelivery(
            device: device, template: keys.template, platform: keys.platform, payload: keys.payload,
            location: node.location)
        if let includes = keys.includes {
            if includes.entries == nil, includes.items == nil {
                reader.error("'includes' must be a mapping or a list, found \(includes.kindName)", at: includes)
            } else {
                delivery.includes = JSONValue(includes)
            }
        }
        for entry in mapping(keys.values, named: "values", reader) {
            delivery.values.append(Expected(key: entry.key, value: JSONValue(entry.value), location: entry.keyLocation))
        }
        let headerNodes = keys.$headers.node?.entries ?? []
        for (name, value) in keys.headers {
            let location = headerNodes.first { $0.key == name }?.keyLocation ?? node.location
            delivery.headers.append(Expected(key: name, value: value, location: location))
        }
        return delivery
    }

    /// The entries of a mapping given for `key`, after reporting anything else.
    private func mapping(_ node: ConfigNode?, named key: String, _ reader: OptionReader) -> [ConfigEntry] {
        guard let node else { return [] }
        guard let entries = node.entries else {
            reader.error("'\(key)' must be a mapping, found \(node.kindName)", at: node)
            return []
        }
        return entries
    }
}
