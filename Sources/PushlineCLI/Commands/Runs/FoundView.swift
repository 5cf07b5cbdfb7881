import ArgumentParser
import Foundation
import PipelineCore
import RunFlow

/// A found item with its run, for `runs find --format json`.
struct FoundView: Encodable {
    let runId: String
    let pipeline: String
    let item: ItemView
}
