import ArgumentParser
import Foundation
import PipelineCore
import Synchronization

/// The JSON printed for a pipeline that did not run because it is invalid.
struct InvalidRun: Encodable {
    let pipeline: String
    let status = "invalid"
    let diagnostics: [Diagnostic]
}

/// The JSON report of an invocation that did not start because another run of the pipeline holds its lock, or is
/// still sending split another way (exit 75): so a report file read after cron's line says why nothing ran.
struct LockedRun: Encodable {
    let pipeline: String
    let status = "locked"
    /// What the console said: whose run it is, since when.
    let message: String
    let exitCode: Int32
}
