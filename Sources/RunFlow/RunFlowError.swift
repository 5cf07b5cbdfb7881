import PipelineCore
import RunStore

/// Why a live run did not start.
package enum RunFlowError: Error, Sendable, Equatable {
    /// Another run of the pipeline holds its lock (exit 75); its holder when known.
    case locked(pipeline: String, holder: LockHolder?)
    /// The same run (its identity) was started split another way (`--shard I/N` with another N, or none): rows
    /// would land in other parts and be sent twice (exit 2).
    case shardMismatch(pipeline: String, run: String, was: Shard?, asked: Shard?)
    /// A run of the pipeline split another way (or whole, or split when this one is not) is still sending
    /// (exit 75: start again once it has ended).
    case otherSplitRunning(pipeline: String, run: String, pid: Int32, was: Shard?, asked: Shard?)
    /// The run store knows the pipeline named `name` as another file (`known`, last started at `seen`), and `pipeline`,
    /// which has no `name:`, only shares its file name (exit 2): it must say which pipeline it is.
    case nameTaken(pipeline: String, name: String, known: String, seen: Double)
    /// The run store cannot be opened, read or written: exit 78 when it is set up wrongly, 75 when it cannot be
    /// reached now, 1 otherwise.
    case store(String, kind: RunStoreError.Kind)

    /// The flow error of a store error.
    package static func store(_ error: RunStoreError) -> RunFlowError {
        .store(error.message, kind: error.kind)
    }

    /// For people.
    package var message: String {
        switch self {
        case .locked(let pipeline, let holder):
            "another run of \(pipeline) is in progress (\(holder?.description ?? "its holder did not say who it is")); not started"
        case .store(let message, _):
            "the run journal: \(message)"
        case .nameTaken(let pipeline, let name, let known, let seen):
            "\(pipeline) goes by the name '\(name)' (its file name; it has no `name:`), and the run journal already has a pipeline '\(name)' "
                + "last started from \(known) at \(RunID.iso(seen)), with other text: it is not taken for that pipeline, so that the two "
                + "never lock out or deduplicate each other by accident; nothing was sent. If it is that pipeline moved, add "
                + "`name: \(name)` to it; if it is another pipeline, give it a name of its own (`name: …`)"
        case .otherSplitRunning(let pipeline, let run, let pid, let was, let asked):
            "run \(run) of \(pipeline) is still sending "
                + (was.map { "as shard \($0) (--shard I/\($0.count))" } ?? "whole (no --shard)")
                + " in process \(pid); a run " + (asked.map { "split in \($0.count) parts" } ?? "of every row")
                + " would send the same rows alongside it; not started (start again once it has ended)"
        case .shardMismatch(let pipeline, let run, let was, let asked):
            "run \(run) of \(pipeline) is "
                + (was.map { "split in \($0.count) parts (--shard I/\($0.count))" } ?? "not split (no --shard)")
                + (asked.map { ", not in \($0.count)" } ?? ", not run whole")
                + "; rows would move between parts and be sent twice: use "
                + (was.map { "--shard I/\($0.count)" } ?? "no --shard")
                + " to go on with it, or --again to start a fresh run"
        }
    }

    /// The exit code it ends the command with.
    package var exitCode: Int32 {
        switch self {
        case .locked, .otherSplitRunning: RunExit.locked
        case .store(_, let kind): RunExit.of(kind)
        case .shardMismatch, .nameTaken: RunExit.invalidInput
        }
    }
}
