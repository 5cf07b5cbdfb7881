import Foundation
import PipelineCore
import RunFlow
import RunStore

/// A run as `/v1/runs/{id}` shows it: its state, times, exit code, item counts per step and state, and, once it has
/// ended, its report (the JSON `pushline run --format json` prints), as the run store keeps it.
struct RunView: Encodable {
    /// The view as JSON, with the stored report spliced in as `report` when it is a JSON object (the run flow wrote
    /// it; it is inserted as text so every number and flag stays exactly as written).
    static func json(_ view: RunView, report: String?) -> String {
        let encoded = JSONText.encode(view)
        guard let report, let data = report.data(using: .utf8),
            (try? JSONSerialization.jsonObject(with: data)) is [String: Any],
            let end = encoded.lastIndex(of: "}")
        else { return encoded }
        return encoded[..<end].trimmingCharacters(in: .whitespacesAndNewlines) + ",\"report\":" + report + "}"
    }

    let id: String
    let pipeline: String
    let status: String
    let startedAt: String
    let endedAt: String?
    let exitCode: Int32?
    let resumes: Int
    let counts: [StepCount]

    init(_ record: RunRecord, pipeline: String, counts: [StepCount]) {
        id = record.id
        self.pipeline = pipeline
        status = record.status.rawValue
        startedAt = Timestamp.iso8601(Date(timeIntervalSince1970: record.startedAt))
        endedAt = record.endedAt.map { Timestamp.iso8601(Date(timeIntervalSince1970: $0)) }
        exitCode = record.exitCode
        resumes = record.resumes
        self.counts = counts
    }
}
