import Foundation
import PipelineCore

/// The exit code a run ends with, whichever front end started it (documented in the README).
public enum RunExit {
    /// Everything succeeded (or a completed run was not repeated).
    public static let success: Int32 = 0
    /// A step failed at run time.
    public static let failure: Int32 = 1
    /// Invalid input; nothing was sent.
    public static let invalidInput: Int32 = 2
    /// Every step ran, but some items failed, are bad or their fate is unknown.
    public static let partial: Int32 = 3
    /// Another run of the same pipeline holds its lock (EX_TEMPFAIL: try again later).
    public static let locked: Int32 = 75

    /// Stopped by SIGINT (128 + 2) or SIGTERM (128 + 15); running again resumes.
    public static func interrupted(signal: Int32) -> Int32 { 128 + signal }

    /// The code of a run that ended with `status`; `signal` is the one that stopped it, if any.
    public static func of(_ status: RunReport.Status, signal: Int32?) -> Int32 {
        switch status {
        case .succeeded: success
        case .partial: partial
        case .failed: failure
        case .interrupted: interrupted(signal: signal ?? SIGTERM)
        case .rejected: invalidInput
        }
    }
}
