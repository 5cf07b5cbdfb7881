import BatchEngine
import PipelineCore

/// Turns what the batch runner made of the devices into the step's result, or into the failure that ends it.
struct RegisterReport {
    /// Device results kept in the report data; the journal has every device.
    static let keptResults = 1000

    /// The hub's pipeline name.
    let hub: String
    /// `installation` or `registration`.
    let noun: String
    /// "registered", "patched", "deleted".
    let pastTense: String
    /// "register", "patch", "delete".
    let infinitive: String
    let outcome: BatchOutcome
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
        let data = ReportValue.array(outcome.items.map(Self.reportValue))
        var notes: [String] = []
        if devices > outcome.items.count {
            notes.append(
                "the report data lists the first \(outcome.items.count) devices"
                    + (journalled ? "; the run journal has every one (`pushline runs show ID`)" : ""))
        }
        let items = devices == 1 && counts.failed == 0 ? nil : counts
        var lines = outcome.firstFailures.map { failure in
            // A row without an id is named by its `file:line`, which its reason already starts with.
            let reason = failure.reason ?? "failed"
            return reason.hasPrefix(failure.label) ? reason : "\(failure.label): \(reason)"
        }
        if counts.failed + counts.bad > outcome.firstFailures.count {
            lines.append(
                "… and \(counts.failed + counts.bad - outcome.firstFailures.count) more failed or bad (see the report data)"
            )
        }
        let shown = outcome.dryRunLines.count
        var requestLines = outcome.dryRunLines
        let rest = outcome.requests - min(outcome.requests, BatchRunner.shownRequests)
        if dryRun, rest > 0, shown > 0 {
            requestLines.append("… \(rest) more request\(rest == 1 ? "" : "s") (--dry-run --trace prints every one)")
        }
        // A run stopped by a signal is resumable, whatever failed before the stop: the run says how to resume.
        if counts.failed == 0 || outcome.interrupted, outcome.stop == nil {
            var summary =
                "\(dryRun ? "would \(infinitive)" : pastTense) \(Self.count(devices, noun)) on hub '\(hub)' (\(tally))"
            if dryRun { summary += "; nothing sent" }
            if outcome.interrupted { summary += "; stopped by a signal before the last device" }
            var result = StepResult(
                summary: summary, lines: lines + requestLines + notes, data: data, items: items,
                interrupted: outcome.interrupted)
            result.handOn(outputs)
            return result
        }
        var failure: StepFailure
        if let stop = outcome.stop {
            failure = StepFailure(
                "stopped after \(Self.count(devices, noun)) on hub '\(hub)' (\(tally)): \(stop.message)",
                hint: stop.hint ?? "fix the problem and run the step again; the devices not reached were not attempted",
                lines: lines + requestLines + notes, data: data
            ).coded(stop.failure.code)
        } else {
            failure = StepFailure(
                "could not \(infinitive) \(counts.failed) of \(Self.count(devices, noun)) on hub '\(hub)' (\(tally))",
                hint:
                    "the report lists every device's outcome; fix the failed ones and run again (a resumed run redoes only what is not done)",
                lines: lines + requestLines + notes, data: data
            ).coded(.hubRefused)
        }
        failure.handOn(outputs)
        failure.items = items
        throw failure
    }

    /// Counts, and the ids of the devices done: installation ids for installations, the registration ids the hub gave
    /// (or that were updated) for registrations. Lists hold the first ones the report keeps; their totals count all.
    var outputs: RegisterStep.Outputs {
        var outputs = RegisterStep.Outputs()
        outputs.counts = outcome.counts
        let done = outcome.items.filter {
            ["created", "updated", "deleted", "skipped", "accepted"].contains($0.outcome)
        }
        if noun == "installation" {
            outputs.installationIds = OutputList(
                done.map(\.label), total: max(done.count, outcome.counts.accepted + outcome.counts.skipped))
        } else {
            outputs.registrationIds = OutputList(outcome.notificationIds, total: outcome.notificationIdTotal)
        }
        return outputs
    }

    /// A device's entry in the report data: `{device, outcome, registrationId?, reason?}`.
    static func reportValue(_ item: BatchItemReport) -> ReportValue {
        var fields = [ReportField("device", .string(item.label)), ReportField("outcome", .string(item.outcome))]
        if let id = item.id { fields.append(ReportField("registrationId", .string(id))) }
        if let reason = item.reason { fields.append(ReportField("reason", .string(reason))) }
        return .object(fields)
    }

    /// "1 installation", "3 installations".
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
