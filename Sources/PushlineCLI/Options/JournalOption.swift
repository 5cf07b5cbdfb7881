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

    /// The status as people should read it: a run the journal shows `running` whose pipeline lock is
    /// free was killed, so it is `abandoned` (and resumes when the same command runs again).
    static func shownStatus(_ run: RunRecord, store: any RunStore) async throws(RunStoreError) -> String {
        guard run.status == .running else { return run.status.rawValue }
        return try await RunNames.isLive(run, in: store) ? "running" : "abandoned"
    }

    /// The parts of a sharded run: the newest run of each shard with its identity, number of parts and generation, in
    /// shard order, with each one's item counts over all steps.
    static func parts(of run: RunRecord, store: any RunStore) async throws(RunStoreError) -> [RunView.Part] {
        guard let shard = run.shard else { return [] }
        var newest: [Int: RunRecord] = [:]
        for sibling in try await store.runs(identity: run.identity, limit: 4 * Shard.maximumCount) {
            // One generation's parts: those of an earlier or later `--again` start are other runs.
            guard let part = sibling.shard, part.count == shard.count, sibling.generation == run.generation,
                newest[part.index] == nil
            else { continue }
            newest[part.index] = sibling
        }
        var parts: [RunView.Part] = []
        for index in newest.keys.sorted() {
            let record = newest[index]!
            var items: [String: Int] = [:]
            for count in try await store.counts(run: record.id) {
                items[count.state.rawValue, default: 0] += count.count
            }
            parts.append(
                RunView.Part(
                    shard: record.shard?.description ?? "", id: record.id,
                    status: try await shownStatus(record, store: store), exitCode: record.exitCode, items: items))
        }
        return parts
    }
}
