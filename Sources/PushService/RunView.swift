import Foundation
import RunStore

/// A run as `/v1/runs/{id}` shows it: its state, times, exit code, item counts per step and state, and the run's
/// report summary as the run store keeps it.
struct RunView: Encodable {
    struct Count: Encodable {
        let step: Int
        let stepId: String
        let state: String
        let count: Int
    }

    let id: String
    let pipeline: String
    let status: String
    let startedAt: String
    let endedAt: String?
    let exitCode: Int32?
    let resumes: Int
    let counts: [Count]

    init(_ record: RunRecord, pipeline: String, counts: [StepCount]) {
        let format = ISO8601DateFormatter()
        id = record.id
        self.pipeline = pipeline
        status = record.status.rawValue
        startedAt = format.string(from: Date(timeIntervalSince1970: record.startedAt))
        endedAt = record.endedAt.map { format.string(from: Date(timeIntervalSince1970: $0)) }
        exitCode = record.exitCode
        resumes = record.resumes
        self.counts = counts.map { Count(step: $0.step, stepId: $0.stepId, state: $0.state.rawValue, count: $0.count) }
    }
}
