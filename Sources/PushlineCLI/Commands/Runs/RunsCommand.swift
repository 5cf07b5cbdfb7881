import ArgumentParser
import Foundation
import HubWire
import PipelineCore
import RunFlow
import RunStore

/// `pushline runs list|show|resolve|find|prune`: what the run journal knows, and settling what it cannot know.
struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "Show journalled runs and their items, settle unknown items, find an item again, prune old runs.",
        discussion: ExitStatus.help([
            .ok, .init("1", "`runs find`: no item matches"),
            .init("2", "no run journal yet, no such run, a run still running (`resolve`), or a bad option"),
            .init("75", "a PostgreSQL run store cannot be reached now"),
            .init("78", "the run store is set up wrongly (a login it rejects, a database that does not exist)"),
        ]),
        subcommands: [List.self, Show.self, Resolve.self, Find.self, Outcomes.self, Prune.self])

    struct List: AsyncParsableCommand, JournalCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List runs, newest first.",
            discussion:
                "A run shown `abandoned` was killed while running (its lock is free); run the same command again to resume it."
        )

        @OptionGroup var store: JournalOption

        @Option(help: "At most this many runs.")
        var limit = 20

        func run() async throws {
            let console = Console.current
            let journal = try await store.open(console: console)
            let runs: [RunRecord]
            do { runs = try await journal.runs(limit: max(1, limit)) } catch {
                throw CommandFailure("the run journal: \(error.message)")
            }
            if runs.isEmpty {
                console.line("no runs yet")
                return
            }
            for run in runs {
                let ended = run.endedAt.map { " → \(RunID.iso($0))" } ?? ""
                let exit = run.exitCode.map { ", exit \($0)" } ?? ""
                let resumes = run.resumes > 0 ? ", resumed \(run.resumes)×" : ""
                let status: String
                do { status = try await RunView.shownStatus(run, store: journal) } catch {
                    throw CommandFailure("the run journal: \(error.message)")
                }
                let shard = run.shard.map { "  shard \($0)" } ?? ""
                let superseded = run.supersededBy(among: runs).map { ", superseded by \($0.id)" } ?? ""
                console.line(
                    "\(run.id)  \(status.padding(to: 11)) \(RunID.iso(run.startedAt))\(ended)\(exit)\(resumes)\(superseded)  \(run.pipeline)\(shard)"
                )
            }
        }
    }

    struct Show: AsyncParsableCommand, JournalCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one run: counts per step, items not accepted grouped by reason; with --items, its items.",
            discussion: """
                EXAMPLES:
                  pushline runs show 20261123-030000-3f9c2a
                  pushline runs show 20261123-030000 --items --state failed --format json
                """)

        @OptionGroup var store: JournalOption

        @Argument(help: "The run id (a unique prefix will do).")
        var id: String

        @Flag(help: "List the run's items: row, origin, idempotency key, state, attempts, notification id, error.")
        var items = false

        @Option(
            help:
                "With --items: only items in this state (pending, sending, accepted, failed, unknown, duplicate, bad); repeatable."
        )
        var state: [ItemState] = []

        @Option(help: "Items listed at most (with --items), or unknown items listed at most.")
        var limit = 20

        @Option(help: "Output format: text or json.")
        var format: OutputFormat = .text

        func run() async throws {
            let console = Console.current
            let journal = try await store.open(console: console)
            do {
                guard let run = try await journal.run(matching: id) else {
                    throw CommandFailure("no run '\(id)' in \(RunStores.display(journal.location))")
                }
                if items {
                    let listed = try await journal.items(run: run.id, states: state, limit: max(1, limit))
                    switch format {
                    case .json: console.line(JSONText.encode(listed.map(ItemView.init)))
                    case .text:
                        for item in listed { console.line(ItemView(item).line) }
                        if listed.isEmpty {
                            console.line(
                                "no items\(state.isEmpty ? "" : " in state \(state.map(\.rawValue).joined(separator: ", "))")"
                            )
                        }
                    }
                    return
                }
                if format == .json {
                    console.line(JSONText.encode(try await RunView.read(run, from: journal, unknownLimit: limit)))
                    return
                }
                let status = try await RunView.shownStatus(run, store: journal)
                let counts = try await journal.counts(run: run.id)
                let groups = try await journal.failureGroups(run: run.id, examples: 3)
                let unknown = try await journal.items(run: run.id, states: [.unknown, .sending], limit: max(1, limit))
                let parts = try await RunView.parts(of: run, store: journal)
                let completed = try await journal.completedSteps(run: run.id)
                let superseded = run.supersededBy(
                    among: try await journal.runs(identity: run.identity, limit: 4 * Shard.maximumCount))
                console.line(
                    "run \(run.id): \(status)\(run.exitCode.map { " (exit \($0))" } ?? "")"
                        + (run.shard.map { ", shard \($0) of a run split \($0.count) ways" } ?? ""))
                if status == "abandoned" {
                    console.line("  its process (pid \(run.pid)) is gone; run the same command again to resume it")
                }
                if run.status == .expired {
                    console.line(
                        "  it was cut off and not resumed within its dedupe window; a later start closed it and read its sources afresh"
                    )
                }
                if let superseded {
                    console.line(
                        "  superseded by run \(superseded.id): the next start read its sources afresh instead of resuming this run"
                            + " (its unknown items stay listed here)")
                }
                console.line("pipeline: \(run.pipeline)" + (run.path.map { " (\($0))" } ?? ""))
                console.line(
                    "started: \(RunID.iso(run.startedAt))" + (run.endedAt.map { ", ended: \(RunID.iso($0))" } ?? "")
                        + (run.resumes > 0 ? ", resumed \(run.resumes)×" : ""))
                var byStep: [Int: (String, [ItemState: Int])] = [:]
                for count in counts {
                    byStep[count.step, default: (count.stepId, [:])].1[count.state] = count.count
                }
                // The steps in the pipeline's order: a step's item counts, then what it completed with.
                for step in Set(byStep.keys).union(completed.map(\.step)).sorted() {
                    if let (stepId, states) = byStep[step] {
                        let parts = ItemState.allCases.compactMap { state in
                            states[state].map { "\(ItemCounts.grouped($0)) \(state.rawValue)" }
                        }
                        console.line("step \(step) \(stepId): \(parts.joined(separator: ", "))")
                    }
                    for done in completed where done.step == step {
                        console.line("step \(done.step) \(done.stepId): completed: \(done.summary)")
                        if !done.outputs.isEmpty { console.line("  outputs: \(RunView.outputsLine(done.outputs))") }
                    }
                }
                for group in groups {
                    console.line(
                        "\(group.state.rawValue) ×\(ItemCounts.grouped(group.count)) (step \(group.step) \(group.stepId)): \(group.error ?? "no reason recorded")"
                    )
                    for example in group.examples { console.line("  e.g. \(example)") }
                }
                if !unknown.isEmpty {
                    console.line(
                        "unknown (not resent; check the devices, then `pushline runs resolve \(run.id) --delivered` or `--resend`):"
                    )
                    for item in unknown {
                        console.line(
                            "  \(item.origin) (step \(item.key.step), row \(item.key.row), \(item.attempts) attempt\(item.attempts == 1 ? "" : "s"))"
                        )
                    }
                }
                if let shard = run.shard {
                    // The whole run at a glance: every part's newest attempt, and what is missing.
                    console.line("the run's \(shard.count) shards:")
                    var total: [String: Int] = [:]
                    for part in parts {
                        for (state, count) in part.items { total[state, default: 0] += count }
                        let items = ItemState.allCases.compactMap { state in
                            part.items[state.rawValue].map { "\(ItemCounts.grouped($0)) \(state.rawValue)" }
                        }
                        console.line(
                            "  shard \(part.shard)  \(part.id)  \(part.status.padding(to: 11))"
                                + (part.exitCode.map { "exit \($0)  " } ?? "")
                                + (items.isEmpty ? "no items" : items.joined(separator: ", ")))
                    }
                    let missing = (0..<shard.count).filter { index in
                        !parts.contains { $0.shard == "\(index)/\(shard.count)" }
                    }
                    if !missing.isEmpty {
                        console.line(
                            "  not started: " + missing.map { "shard \($0)/\(shard.count)" }.joined(separator: ", "))
                    }
                    let items = ItemState.allCases.compactMap { state in
                        total[state.rawValue].map { "\(ItemCounts.grouped($0)) \(state.rawValue)" }
                    }
                    console.line("  all shards: " + (items.isEmpty ? "no items" : items.joined(separator: ", ")))
                }
                console.line(
                    "every item: pushline runs show \(run.id) --items [--state failed|unknown|accepted|duplicate|bad] [--format json]"
                )
            } catch let error as RunStoreError {
                throw CommandFailure("the run journal: \(error.message)")
            }
        }
    }
}

extension ItemState: ExpressibleByArgument {}
