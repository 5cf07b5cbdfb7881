import Engine
import HubEmulator
import HubExpressions
import PipelineCore
import RunFlow

/// Checks one run's outcome against its `expect:`, every expectation in turn, so one failing run shows everything
/// that did not hold.
struct RunCheck {
    let run: TestRun
    let outcome: RunOutcome
    /// The template properties a notification's send carried, by notification id.
    var properties: (String) -> String? = { _ in nil }

    /// What did not hold. `tags` gives a delivered installation's tags (for audiences).
    func failures(tags: (String) async -> Set<String>?) async -> [TestFailure] {
        let expect = run.expect
        if let expected = expect.diagnostics {
            return DiagnosticsCheck(
                run: run.label, expected: expected, actual: outcome.diagnostics, at: expect.location
            )
            .failures
        }
        if outcome.refused {
            let errors = outcome.diagnostics.filter { $0.severity == .error }
            return [
                failure(
                    at: run.location, "the pipeline was refused: \(errors.count) error\(errors.count == 1 ? "" : "s")",
                    detail: errors.map(\.description).joined(separator: "\n"))
            ]
        }
        var failures: [TestFailure] = []
        if let message = outcome.message, expect.exit == nil {
            failures.append(failure(at: run.location, "the run did not start: \(message)"))
        }
        if let exit = expect.exit, Int32(exit) != outcome.exitCode {
            failures.append(
                failure(
                    at: expect.location, "exit code \(outcome.exitCode), expected \(exit)",
                    detail: outcome.message ?? outcome.report.map(CaseSession.summary)))
        }
        if let status = expect.status, status != outcome.status {
            failures.append(
                failure(
                    at: expect.location, "the run's status is \(outcome.status), expected \(status)",
                    detail: outcome.report.map(CaseSession.summary)))
        }
        failures += stepFailures(expect)
        failures +=
            DeliveryCheck(run: run.label, expect: expect, deliveries: outcome.deliveries, properties: properties)
            .failures
        failures += await nothingReceivedFailures(expect, tags: tags)
        return failures
    }

    private func stepFailures(_ expect: Expectations) -> [TestFailure] {
        var failures: [TestFailure] = []
        let steps = outcome.report?.steps ?? []
        func step(_ id: String, at location: SourceLocation) -> StepRecord? {
            if let found = StepLookup.find(id, in: steps) { return found }
            let known = steps.map { $0.id ?? $0.step }
            failures.append(
                failure(
                    at: location,
                    "no step '\(id)' in the run's report\(Suggestion.didYouMean(id, in: known))",
                    detail: "steps: \(known.joined(separator: ", "))"))
            return nil
        }
        for expected in expect.steps {
            guard let record = step(expected.key, at: expected.location) else { continue }
            if record.status.rawValue != expected.value {
                failures.append(
                    failure(
                        at: expected.location,
                        "step '\(expected.key)' \(record.status.rawValue), expected \(expected.value)",
                        detail: record.summary))
            }
        }
        for expected in expect.items {
            let parts = expected.key.split(separator: ".").map(String.init)
            guard let record = step(parts[0], at: expected.location) else { continue }
            // A step of one item reports no counts (its summary says what became of it); its outputs still count.
            let output = parts[1] == "duplicates" ? "already-sent" : parts[1]
            let counted =
                record.items.map { StepLookup.count(parts[1], of: $0) }
                ?? record.outputs.flatMap { JSONValue($0).value(at: output) }.flatMap { value -> Int? in
                    if case .integer(let count) = value { count } else { nil }
                }
            guard let actual = counted else {
                failures.append(
                    failure(
                        at: expected.location,
                        "step '\(parts[0])' counts no items: it \(record.status == .skipped ? "did not run" : "does its work once, not item by item")",
                        detail: "check its status or its outputs instead; \(record.summary)"))
                continue
            }
            if actual != expected.value {
                failures.append(
                    failure(
                        at: expected.location, "\(expected.key) is \(actual), expected \(expected.value)",
                        detail: record.summary))
            }
        }
        for expected in expect.outputs {
            let parts = expected.key.split(separator: ".", maxSplits: 1).map(String.init)
            guard let record = step(parts[0], at: expected.location) else { continue }
            let outputs = record.outputs.map(JSONValue.init) ?? .object([:])
            let actual = parts.count == 2 ? outputs.value(at: parts[1]) : outputs
            guard let actual, actual.matches(expected.value) else {
                // A payload handed on as text is shown as the JSON it holds, as it was expected.
                let shown = actual.map { value in
                    if case .string(let text) = value, let parsed = JSONValue(parsing: text), parsed.isContainer {
                        return parsed
                    }
                    return value
                }
                failures.append(
                    failure(
                        at: expected.location,
                        "output \(expected.key) is \(shown?.compact ?? "not there"), expected \(expected.value.compact)",
                        detail: TextDiff.unified(expected: expected.value.pretty, actual: shown?.pretty ?? "")))
                continue
            }
        }
        return failures
    }

    private func nothingReceivedFailures(_ expect: Expectations, tags: (String) async -> Set<String>?) async
        -> [TestFailure]
    {
        var failures: [TestFailure] = []
        for entry in expect.receivedNothing {
            switch entry {
            case .device(let id, let location):
                let got = outcome.deliveries.filter { $0.reaches(id) }
                if !got.isEmpty {
                    failures.append(
                        failure(
                            at: location,
                            "device '\(id)' received \(got.count) notification\(got.count == 1 ? "" : "s"), expected none",
                            detail: got.map { "  \($0.template.map { "template \($0): " } ?? "")\($0.payload)" }
                                .joined(separator: "\n")))
                }
            case .audience(let text, let location):
                guard let expression = try? TagExpression(parsing: text) else { continue }
                var reached: [String] = []
                for delivery in outcome.deliveries {
                    guard let id = delivery.installationId, let deviceTags = await tags(id) else { continue }
                    if expression.matches(deviceTags) { reached.append(id) }
                }
                if !reached.isEmpty {
                    failures.append(
                        failure(
                            at: location,
                            "audience '\(text)' received \(reached.count) notification\(reached.count == 1 ? "" : "s"), expected none",
                            detail: "devices: \(Array(Set(reached)).sorted().joined(separator: ", "))"))
                }
            }
        }
        return failures
    }

    private func failure(at location: SourceLocation, _ message: String, detail: String? = nil) -> TestFailure {
        TestFailure(run: run.label, location: location, message: message, detail: detail)
    }
}

/// Finding a step of a report by what a test file calls it.
enum StepLookup {
    /// The step a test names: by its id, by its kind when the pipeline has one step of it (`send` for a pipeline's
    /// only send), or by its position from 1.
    static func find(_ name: String, in steps: [StepRecord]) -> StepRecord? {
        if let step = steps.first(where: { $0.id == name }) { return step }
        let matching = steps.filter { $0.step == name }
        if matching.count == 1 { return matching[0] }
        return Int(name).flatMap { index in steps.first { $0.index == index } }
    }

    /// The count of one item state.
    static func count(_ state: String, of counts: ItemCounts) -> Int {
        switch state {
        case "accepted": counts.accepted
        case "planned": counts.planned
        case "failed": counts.failed
        case "unknown": counts.unknown
        case "skipped": counts.skipped
        case "duplicates": counts.duplicates
        default: counts.bad
        }
    }
}
