import PipelineCore

/// Turns the devices' results into the step's result, or into the failure that ends the step.
struct RegisterReport {
    /// Failures listed in the failure's lines; the report data holds all of them.
    static let listedFailures = 5

    /// The hub's pipeline name.
    let hub: String
    /// `installation` or `registration`.
    let noun: String
    /// "registered", "patched", "deleted".
    let pastTense: String
    /// "register", "patch", "delete".
    let infinitive: String
    let outcome: RegisterRunner.Outcome
    /// Dry-run request lines (empty when sending for real).
    let requestLines: [String]

    /// The result when every device succeeded; otherwise throws a failure listing up to five failed devices.
    func finish() throws(StepFailure) -> StepResult {
        let results = outcome.results
        let failures = results.filter { $0.outcome == .failed }
        let counts = "(\(results.count - failures.count) ok, \(failures.count) failed)"
        let data = ReportValue.array(results.map(\.reportValue))
        if failures.isEmpty, outcome.stop == nil {
            return StepResult(summary: "\(pastTense) \(Self.count(results.count, noun)) on hub '\(hub)' \(counts)",
                              lines: requestLines, data: data)
        }
        var lines = failures.prefix(Self.listedFailures).map { failure in
            // A row without an id is named by its `file:line`, which its reason already starts with.
            let reason = failure.reason ?? "failed"
            return reason.hasPrefix(failure.device) ? reason : "\(failure.device): \(reason)"
        }
        if failures.count > Self.listedFailures {
            lines.append("… and \(failures.count - Self.listedFailures) more failed (see the report data)")
        }
        if let stop = outcome.stop {
            throw StepFailure(
                "stopped after \(Self.count(results.count, noun)) on hub '\(hub)' \(counts): \(stop.message)",
                hint: stop.hint ?? "fix the problem and run the step again; the devices not reached were not attempted",
                lines: lines + requestLines, data: data)
        }
        throw StepFailure(
            "could not \(infinitive) \(failures.count) of \(Self.count(results.count, noun)) on hub '\(hub)' \(counts)",
            hint: "the report lists every device's outcome; fix the failed ones and run the step again (it is safe to repeat)",
            lines: lines + requestLines, data: data)
    }

    /// "1 installation", "3 installations".
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
