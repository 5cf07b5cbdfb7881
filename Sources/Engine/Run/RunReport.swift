import Foundation
import PipelineCore

/// The outcome of running a pipeline, printed as text or JSON by the CLI.
package struct RunReport: Sendable, Equatable, Encodable {
    /// How the run ended.
    package enum Status: String, Sendable, Equatable, Encodable {
        /// Every step succeeded and every item was accepted.
        case succeeded
        /// Every step ran, but some items failed or their fate is unknown.
        case partial
        /// Every step ran and the hub accepted every notification, but the telemetry a send read (`outcomes:`) shows
        /// that none reached a device.
        case undelivered
        /// A step failed; later steps were skipped.
        case failed
        /// A stop signal ended the run; running it again resumes it.
        case interrupted
        /// The input check found malformed records (or could not read an input); nothing was sent.
        case rejected
    }

    /// The pipeline file.
    package var pipeline: String
    /// The pipeline's name: its `name:`, else its file name without the extension (what the journal, the locks and
    /// the metrics call it).
    package var name: String?
    /// True for a dry run.
    package var dryRun: Bool
    /// When the run started (ISO 8601, UTC).
    package var startedAt: String
    /// When the run finished (ISO 8601, UTC).
    package var finishedAt: String
    /// How the run ended.
    package var status: Status
    /// One record per step, in order.
    package var steps: [StepRecord]
    /// The journal's id for this run (live runs), shown by `pushline runs`.
    package var runId: String?
    /// True when this run resumed an earlier attempt that was cut off.
    package var resumed: Bool?
    /// Why no step ran, when the run's sources gave the rows a completed run already sent (`already completed`).
    package var unchanged: String?

    /// Creates a report.
    package init(pipeline: String, dryRun: Bool, startedAt: Date, finishedAt: Date, status: Status, steps: [StepRecord])
    {
        self.pipeline = pipeline
        self.dryRun = dryRun
        self.startedAt = Timestamp.iso8601(startedAt)
        self.finishedAt = Timestamp.iso8601(finishedAt)
        self.status = status
        self.steps = steps
    }
}
