import ArgumentParser
import Foundation
import HubWire
import PipelineCore
import RunFlow
import RunStore

extension RunsCommand {
    struct Prune: AsyncParsableCommand, JournalCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Remove finished runs older than a duration from the journal, and give their space back.",
            discussion: """
                Keeps, whatever their age: a run whose dedupe window has not passed since it ended (its sends still keep \
                the same notifications from going out again; runs journalled before runs recorded their window count \
                12h), the newest run of an input that was cut off within its window (the next start of that input resumes it; \
                --unfinished removes it too), and a run still sending. Then SQLite journals vacuum incrementally (a \
                journal made before incremental vacuum is rewritten whole, once) and PostgreSQL runs VACUUM.

                EXAMPLES:
                  pushline runs prune --older-than 30d --dry-run
                  pushline runs prune --older-than 90d --pipeline daily-digest
                """)

        @OptionGroup var store: JournalOption

        @Option(
            name: .customLong("older-than"), help: "Remove runs that ended at least this long ago (e.g. 30d, 12h, 0s).")
        var olderThan: String

        @Option(help: "Only runs of this pipeline: its name, or its file.")
        var pipeline: String?

        @Flag(
            help:
                "Also remove the newest run of an input that the next start would resume, once older than --older-than (it is then not resumed)."
        )
        var unfinished = false

        @Flag(name: .customLong("dry-run"), help: "Say what would be removed; remove nothing.")
        var dryRun = false

        @Option(help: "Output format: text or json.")
        var format: OutputFormat = .text

        func validate() throws {
            if ConfigDuration.seconds(olderThan) == nil {
                throw ValidationError("--older-than takes a duration such as 30d, 12h or 0s, found '\(olderThan)'")
            }
        }

        func run() async throws {
            let console = Console.current
            let journal = try await store.open(console: console)
            let name = pipeline.map { PipelineNameArgument.resolve($0, environment: console.environment) }
            let policy = PrunePolicy(
                olderThan: Double(ConfigDuration.seconds(olderThan) ?? 0), pipeline: name, unfinished: unfinished)
            let outcome: RunPruning.Outcome
            do {
                outcome = try await RunPruning.prune(
                    journal, policy: policy, dryRun: dryRun, now: console.clock.now().timeIntervalSince1970)
            } catch { throw CommandFailure("the run journal: \(error.message)", exitCode: RunExit.of(error.kind)) }
            let view = PruneView(outcome, dryRun: dryRun)
            switch format {
            case .json: console.line(JSONText.encode(view))
            case .text: for line in view.lines { console.line(line) }
            }
        }
    }
}

/// What `runs prune` prints.
struct PruneView: Encodable {
    var dryRun: Bool
    var removed: [String]
    var runs: Int
    var items: Int
    var skipRanges: Int
    var kept: Kept
    var bytesBefore: Int64?
    var bytesAfter: Int64?
    var reclaimedBy: String?
    var spaceProblem: String?

    /// Runs kept, by why.
    struct Kept: Encodable {
        var recent: Int
        var inDedupeWindow: Int
        var unfinished: Int
        var running: Int
    }

    init(_ outcome: RunPruning.Outcome, dryRun: Bool) {
        self.dryRun = dryRun
        removed = outcome.plan.remove.map(\.id)
        runs = outcome.removed.runs
        items = outcome.removed.items
        skipRanges = outcome.removed.skipRanges
        kept = Kept(
            recent: outcome.plan.recent.count, inDedupeWindow: outcome.plan.inWindow.count,
            unfinished: outcome.plan.unfinished.count, running: outcome.plan.running.count)
        bytesBefore = outcome.space?.before
        bytesAfter = outcome.space?.after
        reclaimedBy = outcome.space?.method
        spaceProblem = outcome.spaceProblem
    }

    var lines: [String] {
        let verb = dryRun ? "would remove" : "removed"
        var lines = [
            "\(verb) \(runs) run\(runs == 1 ? "" : "s") (\(items) items, \(skipRanges) skip ranges)"
                + (dryRun ? "; nothing was removed (--dry-run)" : "")
        ]
        for id in removed.prefix(20) { lines.append("  \(id)") }
        if removed.count > 20 { lines.append("  … and \(removed.count - 20) more") }
        lines.append(
            "kept: \(kept.recent) recent, \(kept.inDedupeWindow) within their dedupe window, "
                + "\(kept.unfinished) unfinished (can resume), \(kept.running) running")
        if let bytesBefore, let bytesAfter, let reclaimedBy {
            lines.append("journal: \(Self.size(bytesBefore)) → \(Self.size(bytesAfter)) (\(reclaimedBy))")
        }
        if let spaceProblem {
            lines.append("warning: the runs are removed, but their space was not given back: \(spaceProblem)")
        }
        return lines
    }

    static func size(_ bytes: Int64) -> String {
        if bytes >= 1 << 30 { return String(format: "%.1f GiB", Double(bytes) / Double(1 << 30)) }
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
        return String(format: "%.0f KiB", Double(bytes) / 1024)
    }
}
