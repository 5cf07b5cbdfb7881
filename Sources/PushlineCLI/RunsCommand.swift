import ArgumentParser
import Foundation
import PipelineCore
import RunJournal

/// `pushline runs list|show`: what the run journal knows.
struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs", abstract: "Show journalled runs: their state, item counts, failures and unknown items.",
        subcommands: [List.self, Show.self])

    /// Where the journal is.
    struct JournalOption: ParsableArguments {
        @Option(help: "The run journal (SQLite file). Default: $PUSHLINE_JOURNAL, else ${XDG_STATE_HOME:-~/.local/state}/pushline/journal.sqlite.")
        var journal: String?

        func open(console: Console) throws -> Journal {
            let path = journal ?? Journal.defaultPath(environment: console.environment)
            guard FileManager.default.fileExists(atPath: path) else {
                throw CommandFailure("no run journal at '\(path)' yet; live runs create it")
            }
            do { return try Journal(path: path) } catch { throw CommandFailure("the run journal: \(error.message)") }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List runs, newest first.")

        @OptionGroup var options: JournalOption

        @Option(help: "At most this many runs.")
        var limit = 20

        func run() async throws {
            let console = Console.current
            let journal = try options.open(console: console)
            let runs: [RunRecord]
            do { runs = try journal.runs(limit: max(1, limit)) } catch { throw CommandFailure("the run journal: \(error.message)") }
            if runs.isEmpty { console.line("no runs yet"); return }
            for run in runs {
                let ended = run.endedAt.map { " → \(JournalledRun.time($0))" } ?? ""
                let exit = run.exitCode.map { ", exit \($0)" } ?? ""
                let resumes = run.resumes > 0 ? ", resumed \(run.resumes)×" : ""
                console.line("\(run.id)  \(run.status.rawValue.padding(to: 11)) \(JournalledRun.time(run.startedAt))\(ended)\(exit)\(resumes)  \(run.pipeline)")
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one run: counts per step, failures by reason, unknown items.")

        @OptionGroup var options: JournalOption

        @Argument(help: "The run id (a unique prefix will do).")
        var id: String

        @Option(help: "Unknown and failed items listed at most.")
        var limit = 20

        func run() async throws {
            let console = Console.current
            let journal = try options.open(console: console)
            do {
                guard let run = try journal.run(matching: id) else { throw CommandFailure("no run '\(id)' in \(journal.path)") }
                console.line("run \(run.id): \(run.status.rawValue)\(run.exitCode.map { " (exit \($0))" } ?? "")")
                console.line("pipeline: \(run.pipeline)")
                console.line("started: \(JournalledRun.time(run.startedAt))" + (run.endedAt.map { ", ended: \(JournalledRun.time($0))" } ?? "")
                             + (run.resumes > 0 ? ", resumed \(run.resumes)×" : ""))
                var byStep: [Int: (String, [ItemState: Int])] = [:]
                for count in try journal.counts(run: run.id) {
                    byStep[count.step, default: (count.stepId, [:])].1[count.state] = count.count
                }
                for step in byStep.keys.sorted() {
                    let (stepId, states) = byStep[step]!
                    let parts = ItemState.allCases.compactMap { state in states[state].map { "\($0) \(state.rawValue)" } }
                    console.line("step \(step) \(stepId): \(parts.joined(separator: ", "))")
                }
                for group in try journal.failureGroups(run: run.id, examples: 3) {
                    console.line("\(group.state.rawValue) ×\(group.count) (step \(group.step) \(group.stepId)): \(group.error ?? "no reason recorded")")
                    for example in group.examples { console.line("  e.g. \(example)") }
                }
                let unknown = try journal.items(run: run.id, states: [.unknown, .sending], limit: max(1, limit))
                if !unknown.isEmpty {
                    console.line("unknown (not resent; `pushline run … --resend-unknown` sends them again):")
                    for item in unknown { console.line("  \(item.origin) (step \(item.key.step), row \(item.key.row), \(item.attempts) attempt\(item.attempts == 1 ? "" : "s"))") }
                }
            } catch let error as JournalError {
                throw CommandFailure("the run journal: \(error.message)")
            }
        }
    }
}
