import ArgumentParser
import Foundation
import HubWire
import PipelineCore
import RunFlow
import RunStore

extension RunsCommand {
    struct Find: AsyncParsableCommand, JournalCommand {
        static let configuration = CommandConfiguration(
            commandName: "find",
            abstract:
                "Find items by idempotency key, origin (rows.csv:42) or a word of their target (a user id, a handle).",
            discussion: """
                Answers "did user u0203 get last night's digest?": items whose idempotency key or origin is TEXT, \
                or whose audience, handles or installation id hold TEXT as a whole word ($UserId:{u0203}), newest first.

                EXAMPLES:
                  pushline runs find u0203 --pipeline pipelines/daily-digest.yaml --since 24h
                  pushline runs find digest-2026-11-23-u0203 --format json
                """)

        @OptionGroup var store: JournalOption

        @Argument(help: "An idempotency key, an origin, or a word of the target.")
        var text: String

        @Option(help: "Only runs of this pipeline: its name, or its file.")
        var pipeline: String?

        @Option(help: "Only items written this recently (e.g. 24h, 7d).")
        var since: String?

        @Option(help: "Items listed at most.")
        var limit = 20

        @Option(help: "Output format: text or json.")
        var format: OutputFormat = .text

        func validate() throws {
            if let since, ConfigDuration.seconds(since) == nil {
                throw ValidationError("--since takes a duration such as 90m, 24h or 7d, found '\(since)'")
            }
        }

        func run() async throws {
            let console = Console.current
            let journal = try await store.open(console: console)
            let cutoff = since.flatMap(ConfigDuration.seconds).map {
                console.clock.now().timeIntervalSince1970 - Double($0)
            }
            let found: [FoundItem]
            do {
                let name = pipeline.map { PipelineNameArgument.resolve($0, environment: console.environment) }
                found = try await journal.find(text, pipeline: name, since: cutoff, limit: max(1, limit))
            } catch { throw CommandFailure("the run journal: \(error.message)") }
            switch format {
            case .json:
                console.line(
                    JSONText.encode(
                        found.map { FoundView(runId: $0.runId, pipeline: $0.pipeline, item: ItemView($0.item)) }))
            case .text:
                if found.isEmpty {
                    console.line("no item matches '\(text)'\(since.map { " in the last \($0)" } ?? "")")
                    throw ExitStatus.exit(ExitStatus.failure)
                }
                for match in found { console.line("run \(match.runId) \(ItemView(match.item).line)") }
            }
        }
    }
}
