import Foundation
import PipelineCore
import RunJournal

/// How a run names its pipeline in the journal and its lock: the absolute, standardized path.
enum RunPaths {
    /// The pipeline's path as runs and locks name it: the loader's stamp, else the path made absolute.
    static func absolute(_ document: PipelineDocument) -> String {
        document.absolutePath ?? absolute(document.file)
    }

    static func absolute(_ file: String) -> String {
        URL(fileURLWithPath: file).standardizedFileURL.path
    }
}
