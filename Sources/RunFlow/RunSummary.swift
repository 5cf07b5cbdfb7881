import Foundation
import PipelineCore

/// The summary a finished run leaves in the run store: items per step, as `runs show` and monitoring read
/// them back (`{"1:send": {"accepted": 4995, …}}`).
struct RunSummary: Encodable, Equatable {
    /// Counts by `index:step`.
    var steps: [String: ItemCounts]

    init(_ report: RunReport) {
        var steps: [String: ItemCounts] = [:]
        for step in report.steps { if let items = step.items { steps["\(step.index):\(step.step)"] = items } }
        self.steps = steps
    }

    /// The JSON text stored: the step map itself, keys sorted.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(steps) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
