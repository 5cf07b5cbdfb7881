import Engine
import PipelineCore

extension MetricsFile {
    /// The delivery outcomes `outcomes` steps read: devices by platform and outcome, and how far each reading got.
    static func outcomes(_ report: RunReport, pipeline: String) -> String {
        var counts = ""
        var states = ""
        for step in report.steps {
            guard case .object(let fields)? = step.outputs,
                case .string(let state)? = fields.first(where: { $0.key == "outcome-state" })?.value, state != "off"
            else { continue }
            let stepLabels = stepLabels(step)
            for known in ["final", "partial", "unavailable", "none"] {
                states +=
                    "pushline_outcome_state{pipeline=\"\(pipeline)\",\(stepLabels),state=\"\(known)\"} \(known == state ? 1 : 0)\n"
            }
            guard case .array(let lines)? = fields.first(where: { $0.key == "outcome-counts" })?.value else { continue }
            for case .string(let line) in lines {
                let parts = line.split(separator: " ")
                guard parts.count == 3, let count = Int(parts[2]) else { continue }
                counts +=
                    "pushline_outcomes{pipeline=\"\(pipeline)\",\(stepLabels),platform=\"\(label(String(parts[0])))\","
                    + "outcome=\"\(label(String(parts[1])))\"} \(count)\n"
            }
        }
        guard !states.isEmpty else { return "" }
        return
            "# HELP pushline_outcomes Devices by platform and delivery outcome, from the telemetry an outcomes step read (its sample).\n"
            + "# TYPE pushline_outcomes gauge\n" + counts
            + "# HELP pushline_outcome_state How far an outcomes step's reading of telemetry got (1 for its state).\n"
            + "# TYPE pushline_outcome_state gauge\n" + states
    }
}
