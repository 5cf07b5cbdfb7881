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
