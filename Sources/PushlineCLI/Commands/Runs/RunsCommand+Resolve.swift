import ArgumentParser
import Foundation
import PipelineCore
import RunFlow
import RunStore

extension RunsCommand {
    struct Resolve: AsyncParsableCommand, JournalCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve",
            abstract: "Settle a run's unknown items by hand: as delivered, or to be sent again on the next start.",
            discussion: """
                An item is unknown when its request may or may not have reached the hub (no answer after writing, \
                500, 504, a run killed in flight). Pushline never guesses: check (the emulator's side channel, NH \
                telemetry, the device), then settle. --delivered counts the items accepted (and their idempotency \
                keys as sent); --resend makes the next `pushline run` of the same command send them again. Each \
                item records who settled it and when. A partial run left with nothing unsettled becomes completed.

                EXAMPLES:
                  pushline runs resolve 20261123-030000-3f9c2a --delivered --by alice --note "checked NH telemetry"
                  pushline runs resolve 20261123-030000 --resend --step 1 --rows 204,210-215
                """)

        @OptionGroup var store: JournalOption

        @Argument(help: "The run id (a unique prefix will do).")
        var id: String

        @Flag(help: "The items were delivered: count them accepted.")
        var delivered = false

        @Flag(help: "The items were not delivered: the next start of the run sends them again.")
        var resend = false

        @Option(help: "Only items of this step (as `runs show` numbers them).")
        var step: Int?

        @Option(help: "Only these rows of the step: 12,15-20.")
        var rows: String?

        @Option(help: "Who settles them (default: $USER).")
        var by: String?

        @Option(help: "Why, for the audit trail.")
        var note: String?

        func validate() throws {
            guard delivered != resend else { throw ValidationError("give exactly one of --delivered and --resend") }
            if let rows { _ = try Self.ranges(rows) }
        }

        static func ranges(_ text: String) throws -> [ClosedRange<Int>] {
            try text.split(separator: ",").map { part in
                let bounds = part.split(separator: "-", maxSplits: 1).map {
                    Int($0.trimmingCharacters(in: .whitespaces))
                }
                guard let low = bounds.first ?? nil, low > 0, let high = bounds.count == 2 ? bounds[1] : low,
                    high >= low
                else {
                    throw ValidationError("--rows takes row numbers and ranges such as 12,15-20, found '\(part)'")
                }
                return low...high
            }
        }

        func run() async throws {
            let console = Console.current
            let journal = try await store.open(console: console)
            do {
                guard let run = try await journal.run(matching: id) else {
                    throw CommandFailure("no run '\(id)' in \(RunStores.display(journal.location))")
                }
                if try await RunView.shownStatus(run, store: journal) == "running" {
                    throw CommandFailure("run \(run.id) is running (pid \(run.pid)); settle its items after it ends")
                }
                let who = by ?? console.environment["USER"] ?? console.environment["LOGNAME"] ?? "unknown"
                let result = try await journal.resolve(
                    run: run.id, as: delivered ? .delivered : .resend, step: step,
                    rows: try rows.map(Self.ranges) ?? [],
                    by: who, note: note, now: console.clock.now().timeIntervalSince1970)
                guard result.settled > 0 else {
                    console.line(
                        "run \(run.id) has no unknown items\(step.map { " in step \($0)" } ?? "")\(rows.map { " in rows \($0)" } ?? ""); nothing settled"
                    )
                    return
                }
                let noun = result.settled == 1 ? "item" : "items"
                console.line(
                    "run \(run.id): \(ItemCounts.grouped(result.settled)) unknown \(noun) settled as \(delivered ? "delivered" : "to be sent again") by \(who)"
                )
                if result.completed {
                    console.line("run \(run.id) has nothing left unsettled: it is now completed")
                } else if resend {
                    console.line("the next run that reaches them sends them: the same command resumes run \(run.id)")
                } else if result.remaining > 0 {
                    let one = result.remaining == 1
                    console.line(
                        "\(ItemCounts.grouped(result.remaining)) item\(one ? " of the run is" : "s of the run are") still failed, unknown or bad "
                            + "(`pushline runs show \(run.id)`)")
                }
            } catch let error as RunStoreError {
                throw CommandFailure("the run journal: \(error.message)")
            }
        }
    }
}
