import BatchEngine
import Foundation
import HubClient
import HubExpressions
import HubWire
import PipelineCore
import RowReading
import RunStore

extension SendStep {
    /// The step's result: counts, ids, failures by reason, and in a dry run the first requests.
    func finish(_ outcome: BatchOutcome, what: String, context: StepContext) -> StepResult {
        let counts = outcome.counts
        var summary: String
        if context.isDryRun {
            summary =
                "would send \(what) on hub '\(hub.name)' (\(outcome.requests) request\(outcome.requests == 1 ? "" : "s"), nothing sent)"
            if counts.planned != counts.total { summary += ": \(counts.phrase)" }
        } else if counts.total <= 3, counts.accepted == counts.total {
            let ids = outcome.notificationIds.joined(separator: ", ")
            summary = "sent \(what) on hub '\(hub.name)'" + (ids.isEmpty ? "" : ": notification \(ids)")
        } else if counts.total == 1, counts.duplicates == 1, let reason = outcome.failures.first?.examples.first {
            summary = "not sent: \(reason.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? reason)"
        } else {
            summary = "sent \(what) on hub '\(hub.name)': \(counts.phrase)"
            if counts.total == counts.skipped, counts.skipped == 1 {
                summary =
                    "already sent by an earlier attempt of this run"
                    + (outcome.notificationIds.first.map { ": notification \($0)" } ?? "")
            }
        }
        if outcome.resent > 0 {
            // A dry run sends nothing: it says what the live run would do.
            let one = outcome.resent == 1
            summary +=
                "; --again: \(ItemCounts.grouped(outcome.resent)) of these had been sent by an earlier run within the dedupe window and "
                + (context.isDryRun ? "would be sent again" : "\(one ? "was" : "were") sent again")
        }
        if outcome.interrupted { summary += "; stopped by a signal before the last row" }
        var lines = outcome.dryRunLines
        if context.isDryRun, outcome.requests > BatchRunner.shownRequests {
            lines.append(
                "… and \(outcome.requests - BatchRunner.shownRequests) more requests like these (--dry-run --trace prints every one)"
            )
        }
        for group in outcome.failures.prefix(10) {
            lines.append("\(group.state.rawValue) ×\(group.count): \(group.reason)")
            lines += group.examples.map { "  e.g. \($0)" }
        }
        if outcome.failures.contains(where: { $0.state == .unknown }), !context.isDryRun {
            lines.append(
                "unknown items are not resent; check the devices, then run again with --resend-unknown to send them anyway"
            )
        }
        var result = StepResult(
            summary: summary, lines: lines,
            data: .object(
                [
                    ReportField("hub", .string(hub.name)), ReportField("format", .string(format)),
                    ReportField("requests", .array(outcome.requestReports)),
                ] + outcome.reportFields.filter { $0.key != "requests" } + [
                    ReportField("requestCount", .int(outcome.requests))
                ]),
            // A single send that went out (or would, in a dry run) has no items to count; anything else does.
            items: counts.total == 1 && counts.accepted + counts.skipped + counts.planned == 1 ? nil : counts,
            interrupted: outcome.interrupted)
        result.handOn(SendOutputs(outcome))
        return result
    }

    /// `outcome`, or the stop that ended it early, carrying the counts so far for later steps (a summary `when: always`).
    static func stopped(_ outcome: BatchOutcome) throws(StepFailure) -> BatchOutcome {
        guard let stop = outcome.stop else { return outcome }
        var failure = stop.failure
        let counts = outcome.counts
        failure.handOn(SendOutputs(outcome))
        failure.items = counts
        throw failure
    }

    /// What identifies a request's content across attempts: method, URL and body (not the headers,
    /// whose schedule time moves with the clock).
    static func digest(_ request: HubRequest) -> String {
        RowDigest.of([request.method.rawValue, request.url, String(decoding: request.body, as: UTF8.self)])
    }
}
