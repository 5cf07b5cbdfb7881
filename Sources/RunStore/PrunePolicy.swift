/// What pruning the journal removes: finished runs that ended before a cutoff, except what is still needed. A run
/// whose dedupe window has not passed still keeps its notifications from being sent again; the newest run of an input
/// that the next start would resume (`RunRecord.nextStart`: cut off, within its window) is kept too (unless
/// `unfinished` says to remove those as well, once they are older than the cutoff and no process holds them); a run
/// still sending is never removed.
package struct PrunePolicy: Sendable, Equatable {
    /// Runs that ended at least this many seconds ago are removed.
    package var olderThan: Double
    /// Only runs of the pipeline with this name; nil for every pipeline.
    package var pipeline: String?
    /// Also remove the newest run of an input that the next start would resume.
    package var unfinished: Bool
    /// A run never removed: the one pruning at its end.
    package var sparing: String?

    /// The dedupe window of a run that recorded none (journalled before runs recorded theirs): the default window.
    package static let defaultWindow: Double = 12 * 3600

    /// Creates a policy.
    package init(olderThan: Double, pipeline: String? = nil, unfinished: Bool = false, sparing: String? = nil) {
        self.olderThan = olderThan
        self.pipeline = pipeline
        self.unfinished = unfinished
        self.sparing = sparing
    }

    /// Splits `runs` (every run of the store) at `now` into what goes and what stays, and why; `isLive` tells a run
    /// the store shows running whose process still holds its lock from one that was killed.
    package func plan(_ runs: [RunRecord], now: Double, isLive: (RunRecord) -> Bool) -> PrunePlan {
        let cutoff = now - olderThan
        // The newest run of each input (and part): the one that a start of the same input resumes.
        var newest: [String: RunRecord] = [:]
        for run in runs {
            let key = run.identity + "#" + (run.shard?.description ?? "")
            if let known = newest[key], known.startedAt >= run.startedAt { continue }
            newest[key] = run
        }
        var plan = PrunePlan()
        for run in runs where pipeline == nil || run.pipeline == pipeline {
            guard run.id != sparing else { continue }
            let ended = run.endedAt ?? run.resumedAt ?? run.startedAt
            // The rule a start follows: only the newest run of its input, cut off and within its window, is resumed.
            let resumable =
                newest[run.identity + "#" + (run.shard?.description ?? "")]?.id == run.id
                && run.nextStart(now: now) == .resume(run)
            if run.status == .running, isLive(run) {
                plan.running.append(run)
            } else if ended > cutoff {
                plan.recent.append(run)
            } else if ended + (run.dedupeWindow ?? Self.defaultWindow) > now {
                plan.inWindow.append(run)
            } else if resumable, !unfinished {
                plan.unfinished.append(run)
            } else {
                plan.remove.append(run)
            }
        }
        return plan
    }
}

/// What a `PrunePolicy` makes of a store's runs.
package struct PrunePlan: Sendable, Equatable {
    /// Runs to remove, with their items.
    package var remove: [RunRecord] = []
    /// Kept: ended after the cutoff.
    package var recent: [RunRecord] = []
    /// Kept: older, but their dedupe window has not passed.
    package var inWindow: [RunRecord] = []
    /// Kept: the newest run of an input that was cut off within its window, which a start of that input resumes.
    package var unfinished: [RunRecord] = []
    /// Kept: still sending.
    package var running: [RunRecord] = []

    /// Creates an empty plan.
    package init() {}
}

/// What removing runs took away (or would, for a dry run).
package struct RemovedRuns: Sendable, Equatable {
    /// Runs, items and skip ranges removed.
    package var runs: Int
    package var items: Int
    package var skipRanges: Int

    /// Creates a count.
    package init(runs: Int, items: Int, skipRanges: Int) {
        self.runs = runs
        self.items = items
        self.skipRanges = skipRanges
    }
}

/// The store's size before and after giving back the space of removed runs, in bytes.
package struct ReclaimedSpace: Sendable, Equatable {
    package var before: Int64
    package var after: Int64
    /// How: `incremental vacuum`, `VACUUM` (a journal made before incremental vacuum, converted once), PostgreSQL's `VACUUM`.
    package var method: String

    /// Creates a measurement.
    package init(before: Int64, after: Int64, method: String) {
        self.before = before
        self.after = after
        self.method = method
    }
}
