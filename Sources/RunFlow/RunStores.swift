import Engine
import Foundation
import PipelineCore
import PostgresRunStore
import RunStore
import SQLiteRunStore

/// Which run store a command uses, and how it is opened.
///
/// A `postgres://` URL names the PostgreSQL store, shared by runs on several machines; anything else is the
/// path of a SQLite journal file. No command knows which implementation it talks to.
package enum RunStores {
    /// The store `location` names, else `$PUSHLINE_JOURNAL`, else the SQLite file under `$XDG_STATE_HOME`.
    package static func location(_ location: String?, environment: [String: String]) -> String {
        location ?? Journal.defaultPath(environment: environment)
    }

    /// A warning when the journal would come from the default location while `HOME` is not set, as under cron: the
    /// path then depends on the account the system reports, and a start made another way may use another journal,
    /// one that does not know what was sent. Nil when the journal is named (`--journal`, `PUSHLINE_JOURNAL`,
    /// `XDG_STATE_HOME`) or `HOME` is set.
    package static func unpinnedWarning(_ location: String?, environment: [String: String]) -> String? {
        guard location == nil, (environment["PUSHLINE_JOURNAL"] ?? "").isEmpty,
            !(environment["XDG_STATE_HOME"] ?? "").hasPrefix("/"),
            (environment["HOME"] ?? "").isEmpty
        else { return nil }
        return
            "the run journal is \(self.location(nil, environment: environment)), chosen because HOME is not set (as under cron); "
            + "pin it with --journal or PUSHLINE_JOURNAL, so that every start of the pipeline finds the runs the others recorded"
    }

    /// Opens (creating if needed) the store at `location`; `environment` supplies a PostgreSQL password
    /// (`PGPASSWORD`, `${env:}`).
    package static func open(_ location: String, environment: [String: String]) async throws(RunStoreError)
        -> any RunStore
    {
        if PostgresLocation.isURL(location) {
            guard let store = try await PostgresStore.open(location, environment: environment, create: true) else {
                throw RunStoreError("the run store at \(display(location)) could not be created")
            }
            return store
        }
        return try Journal(path: location)
    }

    /// Opens the store at `location` only when it exists already; nil when it does not (nothing has run yet).
    /// Creates nothing.
    package static func openExisting(_ location: String, environment: [String: String]) async throws(RunStoreError) -> (
        any RunStore
    )? {
        if PostgresLocation.isURL(location) {
            return try await PostgresStore.open(location, environment: environment, create: false)
        }
        guard FileManager.default.fileExists(atPath: location) else { return nil }
        return try Journal(path: location)
    }

    /// How people see `location` in messages: a PostgreSQL URL without its password.
    package static func display(_ location: String) -> String {
        guard PostgresLocation.isURL(location) else { return FilePath.shown(location) }
        return (try? PostgresLocation(location, environment: [:], resolvingPassword: false).description)
            ?? "postgres://…"
    }

    /// The store as a dry run sees it: read, never written, never created. nil when there is no store yet or
    /// it cannot be read (then the dry run shows every item as planned; `warn` hears why). The store stays open
    /// for the ledger's life.
    package static func dryRunLedger(
        for pipeline: Pipeline, location: String, environment: [String: String],
        warn: (String) -> Void
    ) async -> (any ItemLedger)? {
        do {
            return try await openExisting(location, environment: environment)?.readOnlyLedger()
        } catch {
            warn(
                "the run journal cannot be read (\(error.message)); the dry run cannot tell which items an earlier run already sent"
            )
            return nil
        }
    }
}
