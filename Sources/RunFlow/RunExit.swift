import Engine
import Foundation
import PipelineCore
import RunStore

/// The exit code a run ends with, whichever front end started it (documented in docs/troubleshooting.md).
package enum RunExit {
    /// Everything succeeded (or a completed run was not repeated).
    package static let success: Int32 = 0
    /// A step failed at run time.
    package static let failure: Int32 = 1
    /// Invalid input; nothing was sent.
    package static let invalidInput: Int32 = 2
    /// Every step ran, but some items failed, are bad or their fate is unknown.
    package static let partial: Int32 = 3
    /// Every notification was accepted, but the telemetry a send read (`outcomes:`) shows no device was reached.
    package static let undelivered: Int32 = 4
    /// Another run of the same pipeline (or shard) holds its lock, or the run store cannot be reached now
    /// (EX_TEMPFAIL: try again later; the run resumes).
    package static let locked: Int32 = 75
    /// The run store is set up wrongly: a login it rejects, a database that does not exist, a file that is not
    /// a journal (EX_CONFIG). Retrying cannot help until a person fixes it.
    package static let configuration: Int32 = 78

    /// Stopped by SIGINT (128 + 2) or SIGTERM (128 + 15); running again resumes.
    package static func interrupted(signal: Int32) -> Int32 { 128 + signal }

    /// The code a run that could not use its store ends with.
    package static func of(_ kind: RunStoreError.Kind) -> Int32 {
        switch kind {
        case .configuration: configuration
        case .unavailable: locked
        case .failure: failure
        }
    }

    /// The code of a run that ended with `status`; `signal` is the one that stopped it, if any.
    package static func of(_ status: RunReport.Status, signal: Int32?) -> Int32 {
        switch status {
        case .succeeded: success
        case .partial: partial
        case .undelivered: undelivered
        case .failed: failure
        case .interrupted: interrupted(signal: signal ?? SIGTERM)
        case .rejected: invalidInput
        }
    }
}
