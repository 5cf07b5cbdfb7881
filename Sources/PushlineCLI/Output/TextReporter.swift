import Engine
import Foundation
import PipelineCore

/// Formats a run report for people: one line per step, details indented under it.
///
/// Durations are left to the JSON report so the text output of a run is reproducible.
enum TextReporter {
    static func format(_ report: RunReport) -> String {
        var text = "pipeline: \(report.pipeline)\(report.dryRun ? " (dry run: nothing is sent)" : "")\n"
        if let runId = report.runId { text += "run: \(runId)\(report.resumed == true ? " (resumed)" : "")\n" }
        let total = report.steps.count
        let width = report.steps.map(\.title.count).max() ?? 0
        for record in report.steps {
            let name = record.title.padding(to: width)
            let status: String
            switch record.status {
            case .succeeded: status = "ok    "
            case .partial: status = "PARTIAL"
            case .failed: status = "FAILED"
            case .skipped: status = "skip  "
            case .interrupted: status = "STOPPED"
            }
            text += "[\(record.index)/\(total)] \(name) \(status) \(record.summary)\n"
            if record.status == .failed { text += "        at \(record.location)\n" }
            if let input = record.input, let line = reconciliation(input, record.items) { text += "        \(line)\n" }
            for line in record.lines { text += "        \(line)\n" }
            if let hint = record.hint { text += "        hint: \(hint)\n" }
        }
        text += "result: \(report.status.rawValue)\(itemPhrase(report)) (steps: \(stepPhrase(report)))\n"
        return text
    }

    /// How a step's items add up to its input's records: `5,000 records in 'rows.csv' = 4,995 accepted + 5 bad`.
    static func reconciliation(_ input: InputSummary, _ items: ItemCounts?) -> String? {
        let records = "\(ItemCounts.grouped(input.records)) record\(input.records == 1 ? "" : "s") in '\(input.file)'"
        guard let items else {
            return input.bad > 0 ? "\(records), \(ItemCounts.grouped(input.bad)) malformed" : "\(records) checked"
        }
        let sum = items.phrase.replacingOccurrences(of: ", ", with: " + ")
        if items.total == input.records { return "\(records) = \(sum)" }
        // A run stopped by a signal has rows it never reached; say so rather than leave a gap.
        let left = input.records - items.total
        return "\(records): \(sum)" + (left > 0 ? " + \(ItemCounts.grouped(left)) not reached" : "")
    }

    /// ` — 4,995 accepted, 5 failed` over every batch step, or nothing when no step counted items.
    static func itemPhrase(_ report: RunReport) -> String {
        let counted = report.steps.compactMap(\.items)
        guard !counted.isEmpty else { return "" }
        return " — " + counted.reduce(ItemCounts(), +).phrase
    }

    /// `1 succeeded, 1 partial`.
    static func stepPhrase(_ report: RunReport) -> String {
        let counts = Dictionary(grouping: report.steps, by: \.status).mapValues(\.count)
        var parts = ["\(counts[.succeeded] ?? 0) succeeded"]
        if let partial = counts[.partial] { parts.append("\(partial) partial") }
        if let failed = counts[.failed] { parts.append("\(failed) failed") }
        if let skipped = counts[.skipped] { parts.append("\(skipped) skipped") }
        if let stopped = counts[.interrupted] { parts.append("\(stopped) stopped") }
        return parts.joined(separator: ", ")
    }
}

extension String {
    /// Pads with spaces on the right to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
