import PipelineCore

/// Formats a run report for people: one line per step, details indented under it.
///
/// Durations are left to the JSON report so the text output of a run is reproducible.
enum TextReporter {
    static func format(_ report: RunReport) -> String {
        var text = "pipeline: \(report.pipeline)\(report.dryRun ? " (dry run: nothing is sent)" : "")\n"
        let total = report.steps.count
        let width = report.steps.map(\.step.count).max() ?? 0
        for record in report.steps {
            let name = record.step.padding(to: width)
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
            for line in record.lines { text += "        \(line)\n" }
            if let hint = record.hint { text += "        hint: \(hint)\n" }
        }
        let counts = Dictionary(grouping: report.steps, by: \.status).mapValues(\.count)
        var parts = ["\(counts[.succeeded] ?? 0) succeeded"]
        if let partial = counts[.partial] { parts.append("\(partial) partial") }
        if let failed = counts[.failed] { parts.append("\(failed) failed") }
        if let skipped = counts[.skipped] { parts.append("\(skipped) skipped") }
        if let stopped = counts[.interrupted] { parts.append("\(stopped) stopped") }
        text += "result: \(report.status.rawValue) (\(parts.joined(separator: ", ")))\n"
        return text
    }
}

extension String {
    /// Pads with spaces on the right to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
