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
    /// True when every device is in the run journal.
    var journalled = false
    /// True in a dry run: nothing was sent, so the summary says what would be.
    var dryRun = false

    /// The result when every device succeeded; otherwise throws a failure listing up to five failed devices.
    func finish() throws(StepFailure) -> StepResult {
        let counts = outcome.counts
        let devices = counts.total
        var tally = counts.planned > 0 ? "\(counts.planned) planned" : "\(counts.accepted) ok"
        tally += ", \(counts.failed) failed"
        if counts.bad > 0 { tally += ", \(counts.bad) bad" }
        if counts.skipped > 0 { tally += ", \(counts.skipped) done by an earlier attempt" }
        if counts.duplicates > 0 { tally += ", \(counts.duplicates) already done" }
        if outcome.resent > 0 { tally += ", \(outcome.resent) done again as --again asked" }
        let data = ReportValue.array(outcome.results.map(\.reportValue))
        var notes: [String] = []
        if devices > outcome.results.count {
            notes.append("the report data lists the first \(outcome.results.count) devices"
                         + (journalled ? "; the run journal has every one (`pushline runs show ID`)" : ""))
        }
        let items = devices == 1 && counts.failed == 0 ? nil : counts
        var lines = outcome.failures.map { failure in
            // A row without an id is named by its `file:line`, which its reason already starts with.
            let reason = failure.reason ?? "failed"
            return reason.hasPrefix(failure.device) ? reason : "\(failure.device): \(reason)"
        }
        if counts.failed + counts.bad > outcome.failures.count {
            lines.append("… and \(counts.failed + counts.bad - outcome.failures.count) more failed or bad (see the report data)")
        }
        // A run stopped by a signal is resumable, whatever failed before the stop: the run says how to resume.
        if (counts.failed == 0 || outcome.interrupted), outcome.stop == nil {
            var summary = "\(dryRun ? "would \(infinitive)" : pastTense) \(Self.count(devices, noun)) on hub '\(hub)' (\(tally))"
            if dryRun { summary += "; nothing sent" }
            if outcome.interrupted { summary += "; stopped by a signal before the last device" }
            return StepResult(summary: summary, lines: lines + requestLines + notes, data: data, items: items, interrupted: outcome.interrupted)
        }
        if let stop = outcome.stop {
            throw StepFailure(
                "stopped after \(Self.count(devices, noun)) on hub '\(hub)' (\(tally)): \(stop.message)",
                hint: stop.hint ?? "fix the problem and run the step again; the devices not reached were not attempted",
                lines: lines + requestLines + notes, data: data)
        }
        throw StepFailure(
            "could not \(infinitive) \(counts.failed) of \(Self.count(devices, noun)) on hub '\(hub)' (\(tally))",
            hint: "the report lists every device's outcome; fix the failed ones and run again (a resumed run redoes only what is not done)",
            lines: lines + requestLines + notes, data: data)
    }

    /// "1 installation", "3 installations".
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
