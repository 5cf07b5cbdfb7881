import ArgumentParser
import Foundation
import PipelineCore
import RunFlow
import RunStore

/// `--journal`: where the run journal is, with the `--env-file` that may say it (`$PUSHLINE_JOURNAL`).
struct JournalOption: ParsableArguments {
    @Option(
        help:
            "The run journal: a SQLite file, or a postgres:// URL shared by several machines. Default: $PUSHLINE_JOURNAL, else ${XDG_STATE_HOME:-~/.local/state}/pushline/journal.sqlite."
    )
    var journal: String?

    @OptionGroup var settings: EnvironmentFileOption

    func open(console: Console) async throws -> any RunStore {
        let location = RunStores.location(journal, environment: console.environment)
        let opened: (any RunStore)?
        do {
            opened = try await RunStores.openExisting(location, environment: console.environment)
        } catch {
            throw CommandFailure("the run journal: \(error.message)", exitCode: RunExit.of(error.kind))
        }
        guard let opened else {
            throw CommandFailure("no run journal at '\(RunStores.display(location))' yet; live runs create it")
        }
        return opened
    }
}
