import ArgumentParser
import Foundation
import PipelineCore

/// Exit codes, documented in the README and in `pushline --help`.
public enum ExitStatus {
    /// Everything succeeded.
    public static let success: Int32 = 0
    /// A step failed at run time.
    public static let failure: Int32 = 1
    /// Invalid input: a pipeline, template, expression or command line that is wrong, or an input file
    /// whose check found malformed rows (under `bad-rows: stop`). Nothing was sent.
    public static let invalidInput: Int32 = 2
    /// Partial: every step ran, but some items failed or their fate is unknown.
    public static let partial: Int32 = 3
    /// Another run of the same pipeline holds its lock (EX_TEMPFAIL: try again later).
    public static let locked: Int32 = 75
    /// Stopped by SIGINT (128 + 2) or SIGTERM (128 + 15); running again resumes.
    public static func interrupted(signal: Int32) -> Int32 { 128 + signal }

    /// The help text section that lists them.
    static let helpText = """
        EXIT CODES:
          0    success: every step ran and every item was accepted (or a completed run was not repeated)
          1    a step failed while running
          2    invalid input (pipeline, template, expression, arguments, malformed input rows); nothing was sent
          3    partial: some items failed or their fate is unknown (see the report; run again to retry)
          75   another run of this pipeline holds its lock
          130  stopped by SIGINT, 143 by SIGTERM; run the same command again to resume
        """

    /// Throws the given exit code out of a command.
    static func exit(_ code: Int32) -> ExitCode { ExitCode(code) }

    /// The code a run ends with: its status, or for an interrupted run the signal that stopped it.
    static func of(_ status: RunReport.Status, signal: Int32?) -> Int32 {
        switch status {
        case .succeeded: success
        case .partial: partial
        case .failed: failure
        case .interrupted: interrupted(signal: signal ?? SIGTERM)
        case .rejected: invalidInput
        }
    }
}
