import Engine
import Foundation
import PipelineCore

/// A Prometheus textfile for the node exporter's textfile collector: the last run's items by step
/// and state, its duration, retries, exit code and end time. Series are labelled as the journal, the locks and
/// `runs find` name things: the pipeline by its `name:` (else its file name), a step by its `id:` (else its position),
/// with its kind beside.
package enum MetricsFile {
    package static func render(_ report: RunReport, seconds: Double, exitCode: Int32) -> String {
        let pipeline = label(report.name ?? PipelineName.fromFile(report.pipeline))
        var text = """
            # HELP pushline_items Items of the last run of a pipeline, by step and final state.
            # TYPE pushline_items gauge

            """
        for step in report.steps {
            guard let items = step.items else { continue }
            let states = [
                ("accepted", items.accepted), ("planned", items.planned), ("failed", items.failed),
                ("unknown", items.unknown),
                ("skipped", items.skipped), ("duplicate", items.duplicates), ("bad", items.bad),
            ]
            for (state, count) in states {
                text += "pushline_items{pipeline=\"\(pipeline)\",\(stepLabels(step)),state=\"\(state)\"} \(count)\n"
            }
        }
        text += outcomes(report, pipeline: pipeline)
        let retries = report.steps.reduce(0) { sum, step in
            if case .object(let fields) = step.data,
                case .int(let value)? = fields.first(where: { $0.key == "retries" })?.value
            {
                return sum + value
            }
            return sum
        }
        text += """
            # HELP pushline_run_duration_seconds Wall time of the last run.
            # TYPE pushline_run_duration_seconds gauge
            pushline_run_duration_seconds{pipeline="\(pipeline)"} \(String(format: "%.3f", seconds))
            # HELP pushline_run_retries Retries (throttling, busy answers, connection failures) in the last run.
            # TYPE pushline_run_retries gauge
            pushline_run_retries{pipeline="\(pipeline)"} \(retries)
            # HELP pushline_run_exit_code Exit code of the last run (0 ok, 1 failed, 2 invalid input, 3 partial, 4 undelivered, 130/143 stopped).
            # TYPE pushline_run_exit_code gauge
            pushline_run_exit_code{pipeline="\(pipeline)"} \(exitCode)
            # HELP pushline_run_last_end_timestamp_seconds When the last run ended.
            # TYPE pushline_run_last_end_timestamp_seconds gauge
            pushline_run_last_end_timestamp_seconds{pipeline="\(pipeline)"} \(Int(Date().timeIntervalSince1970))

            """
        return text
    }

    /// A step's labels: `step` (its `id:`, else its position) and `kind`.
    static func stepLabels(_ step: StepRecord) -> String {
        "step=\"\(label(step.id ?? String(step.index)))\",kind=\"\(label(step.step))\""
    }

    /// A label value with `\`, `"` and line breaks escaped, as the exposition format asks.
    static func label(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
