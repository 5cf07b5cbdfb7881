import Foundation
import PipelineCore
import RunJournal

/// How a run names its pipeline in the journal and its lock: the absolute, standardized path.
enum RunPaths {
    static func absolute(_ file: String) -> String {
        URL(fileURLWithPath: file).standardizedFileURL.path
    }
}
