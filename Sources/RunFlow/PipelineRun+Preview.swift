import Engine
import Foundation
import PipelineCore
import RunStore

/// What a live run would do if it started now, from the same decision a live start makes (`RunRecord.nextStart`).
extension PipelineRun {
    /// What a live run of `pipeline` (of one part of it, with `shard`) would do if it started now, without
    /// starting it: nothing is created.
    package static func preview(
        _ pipeline: Pipeline, registry: StepRegistry, store: String?, shard: Shard? = nil,
        console: Console
    ) async -> Preview {
        let location = RunStores.location(store, environment: console.environment)
        guard let opened = (try? await RunStores.openExisting(location, environment: console.environment)) ?? nil else {
            return .start
        }
        let preview = await preview(
            pipeline, registry: registry, opened: opened, shard: shard, now: console.clock.now().timeIntervalSince1970)
        await opened.close()
        return preview
    }

    private static func preview(
        _ pipeline: Pipeline, registry: StepRegistry, opened: any RunStore, shard: Shard?, now: Double
    ) async -> Preview {
        let name = pipeline.document.name
        let identity = RunIdentity.digest(of: pipeline, registry: registry)
        if let known = (try? await RunNames.stranger(pipeline.document, identity: identity, in: opened)) ?? nil {
            return .nameTaken(known)
        }
        for lockName in RunNames.lockNames(name, identity: identity, shard: shard)
        where (try? await opened.isLocked(pipeline: lockName)) == true {
            return .locked
        }
        if let other = (try? await RunNames.liveOtherSplit(name, identity: identity, shard: shard, in: opened)) ?? nil {
            return .otherSplitRunning(other)
        }
        if let newest = try? await opened.runs(identity: identity, limit: 1).first, newest.shard?.count != shard?.count,
            case .resume = newest.nextStart(now: now)
        {
            return .splitDifferently(newest)
        }
        guard let latest = try? await opened.latestRun(identity: identity, shard: shard) else { return .start }
        let next = latest.nextStart(now: now)
        if let done = next.completedAlready(readsSources: pipeline.readsSources, now: now) { return .completed(done) }
        switch next {
        case .resume(let run): return .resume(run)
        case .expire(let run): return .expire(run)
        case .newRun:
            guard let completed = next.comparedRun(now: now) else { return .start }
            return .newRun(after: completed)
        }
    }

    /// What a live run would do now.
    package enum Preview: Equatable, Sendable {
        /// The store knows a pipeline of the same name as another file, and this one has no `name:`: it would stop
        /// with exit 2 (`RunFlowError.nameTaken`).
        case nameTaken(PipelineHome)
        /// Another run holds the pipeline's lock (or this part's): it would exit 75.
        case locked
        /// This run, split another way (or not split), is sending now: it would exit 75.
        case otherSplitRunning(RunRecord)
        /// The newest run with the same identity was cut off while split another way: it would stop with exit 2 unless
        /// `--again`.
        case splitDifferently(RunRecord)
        /// Start a new run (no run before it, or the one before ended partial, failed on its input, or expired).
        case start
        /// Start a new run that reads its sources; if they give the rows this completed run sent, nothing is sent.
        case newRun(after: RunRecord)
        /// Resume this run, cut off within its window (interrupted, failed mid-way, or abandoned when it shows `running`).
        case resume(RunRecord)
        /// Close this run, cut off longer ago than its window, as expired; then start a new run.
        case expire(RunRecord)
        /// Nothing: this same run completed, and the pipeline reads no source (its identity holds every input).
        case completed(RunRecord)

        /// The id of the run a live start would resume, if it would.
        package var resumes: String? {
            if case .resume(let run) = self { run.id } else { nil }
        }

        /// What a live run would do, in words (a dry run's first line).
        package var plan: String {
            switch self {
            case .nameTaken(let home):
                "a live run would stop with exit 2: the journal knows another pipeline of this name (last started from \(home.path))"
            case .locked: "a live run would exit 75: another run of this pipeline holds its lock"
            case .otherSplitRunning(let run):
                "a live run would exit 75: run \(run.id) of this pipeline is sending, split another way"
            case .splitDifferently(let run):
                "a live run would stop with exit 2: run \(run.id) was cut off while split \(run.shard.map { "in \($0.count) parts" } ?? "whole")"
            case .start: "a live run would start a new run, reading its sources now"
            case .newRun(let run):
                "a live run would start a new run, reading its sources now; if they give the rows run \(run.id) sent, it sends nothing"
            case .resume(let run):
                "a live run would resume run \(run.id) (\(run.status == .running ? "abandoned" : run.status.rawValue)) with the rows it first "
                    + "read, skipping what it completed"
            case .expire(let run):
                "a live run would close run \(run.id), cut off too long ago, as expired, and start a new run reading its sources now"
            case .completed(let run):
                "a live run would send nothing: run \(run.id) completed at \(Timestamp.iso8601(Date(timeIntervalSince1970: run.endedAt ?? run.startedAt)))"
            }
        }
    }
}
