import Foundation
import PipelineCore
import RunJournal

/// The run journal as a dry run sees it: read, never written, and never created.
enum DryRunJournal {
    /// A read-only ledger over the pipeline's runs when the journal exists and opens; nil otherwise (then a
    /// dry run shows every item as planned). A journal that exists but cannot be read is reported.
    static func ledger(for pipeline: Pipeline, journalPath: String?, console: Console) -> JournalLedger? {
        let path = journalPath ?? Journal.defaultPath(environment: console.environment)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try Journal(path: path).readOnlyLedger(pipeline: RunPaths.absolute(pipeline.document))
        } catch {
            console.errorLine("pushline: warning: the run journal cannot be read (\(error.message)); "
                              + "the dry run cannot tell which items an earlier run already sent")
            return nil
        }
    }
}
