import Foundation
import PipelineCore
import RunJournal
import RunStore

/// Which run store a command uses, and how it is opened.
///
/// Today every location is a SQLite journal file; a shared store is chosen here by its URL, so no command
/// knows which implementation it talks to.
public enum RunStores {
    /// The store `location` names, else `$PUSHLINE_JOURNAL`, else the SQLite file under `$XDG_STATE_HOME`.
    public static func location(_ location: String?, environment: [String: String]) -> String {
        location ?? Journal.defaultPath(environment: environment)
    }

    /// Opens (creating if needed) the store at `location`.
    public static func open(_ location: String) throws(RunStoreError) -> any RunStore {
        try Journal(path: location)
    }

    /// Opens the store at `location` only when it exists already; nil when it does not (nothing has run yet).
    public static func openExisting(_ location: String) throws(RunStoreError) -> (any RunStore)? {
        guard FileManager.default.fileExists(atPath: location) else { return nil }
        return try open(location)
    }

    /// The store as a dry run sees it: read, never written, never created. nil when there is no store yet or
    /// it cannot be read (then the dry run shows every item as planned; `warn` hears why).
    public static func dryRunLedger(for pipeline: Pipeline, location: String, warn: (String) -> Void) -> (any ItemLedger)? {
        do {
            return try openExisting(location)?.readOnlyLedger(pipeline: RunPaths.absolute(pipeline.document))
        } catch {
            warn("the run journal cannot be read (\(error.message)); the dry run cannot tell which items an earlier run already sent")
            return nil
        }
    }
}
