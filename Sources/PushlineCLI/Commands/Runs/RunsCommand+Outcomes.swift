import ArgumentParser
import Foundation
import HubClient
import HubHTTP
import HubWire
import PipelineCore
import RunFlow
import RunStore

extension RunsCommand {
    /// `pushline runs outcomes ID`: reads the delivery outcomes of a run's notifications after the run, from the journal's
    /// notification ids and the hub's telemetry, and keeps them with the run's completed steps.
    struct Outcomes: AsyncParsableCommand, JournalCommand {
        static let configuration = CommandConfiguration(
            commandName: "outcomes",
            abstract: "Read the delivery outcomes of a run's notifications from the hub's telemetry, after the run.",
            discussion: """
                For each step of the run that sent notifications, reads NH's per-message telemetry of (a uniform sample of)
                the notifications the journal holds for it, and prints the per-platform outcome counts. The counts of a
                completed step are kept in the journal with its outputs (`runs show` prints them). The hubs are the
                pipeline's, read from the pipeline file the run used, with this environment (--env-file, --param).

                EXAMPLES:
                  pushline runs outcomes 20261123-030000-3f9c2a
                  pushline runs outcomes 20261123-030000 --wait 5m --format json

                \(ExitStatus.help([.ok,
                    .init("1", "telemetry could not be read (a Free or Basic hub, a key without Manage, the hub unreachable)"),
                    .init("2", "no such run, a run still running, a pipeline file that cannot be loaded, or a bad option"),
                    .init("3", "some outcomes were not final (or had no telemetry yet) when the wait ended"),
                    .init("4", "the outcomes of a step are final and show none of its notifications reached a device"),
                ]))
                """)

        @OptionGroup var store: JournalOption
        @OptionGroup var parameters: ParameterOption
        @Argument(help: "The run id (a unique prefix will do).") var id: String
        @Option(help: "Only this step (its number in `steps:`).") var step: Int?
        @Option(help: "Notifications read per step at most, a uniform sample of the step's (1 to 1000).") var sample =
            100
        @Option(
            help:
                "Keep asking, waiting longer each time, until the outcomes are final or this much time has passed (e.g. 5m)."
        )
        var wait = "0s"
        @Option(help: "Output format: text or json.") var format: OutputFormat = .text

        func validate() throws {
            guard (1...1000).contains(sample) else {
                throw ValidationError("--sample must be from 1 to 1000, found \(sample)")
            }
            guard ConfigDuration.seconds(wait) != nil || wait == "0s" || wait == "0" else {
                throw ValidationError("--wait must be a duration such as 90s or 5m, found '\(wait)'")
            }
        }

        func run() async throws {
            let console = Console.current
            let journal = try await store.open(console: console)
            let run = try await RunPipeline.endedRecord(id, in: journal, doing: "read its outcomes")
            let executor = HTTP1Client(trust: try console.hubTrust())
            let sessions: [Int: HubSession]
            do {
                sessions = try await hubSessions(
                    for: run, console: console, transport: RetryingTransport(executor: executor))
            } catch {
                await executor.shutdown()
                throw error
            }
            let samples: [(step: Int, stepId: String, accepted: Int, ids: NotificationSample?)]
            do { samples = try await sampled(run, in: journal, sending: Set(sessions.keys)) } catch {
                await executor.shutdown()
                throw error
            }
            let withIds = samples.filter { ($0.ids?.total ?? 0) > 0 }
            if withIds.isEmpty, let first = samples.first {
                await executor.shutdown()
                // NH gives a notification id (the send's Location) only on the Standard tier.
                throw CommandFailure(
                    "step \(first.step) of run \(run.id) sent \(first.accepted) notification\(first.accepted == 1 ? "" : "s") but the hub gave no notification ids: "
                        + "it keeps no per-message telemetry (a Free or Basic hub); that needs the Standard tier",
                    exitCode: ExitStatus.failure)
            }
            if withIds.isEmpty {
                await executor.shutdown()
                console.line(
                    "run \(run.id) has no accepted notifications\(step.map { " in step \($0)" } ?? "") to read outcomes of"
                )
                return
            }
            var read: [(step: Int, stepId: String, outcomes: DeliveryOutcomes)] = []
            for (index, stepId, _, picked) in withIds {
                guard let hub = sessions[index], let picked else { continue }
                let outcomes = await OutcomeCollector(session: hub).collect(
                    picked.ids, of: picked.total, wait: Double(ConfigDuration.seconds(wait) ?? 0))
                read.append((index, stepId, outcomes))
            }
            await executor.shutdown()
            let kept = await keep(read, run: run, journal: journal, console: console)
            print(read, run: run, kept: kept, console: console)
            let states = read.map(\.outcomes)
            if states.contains(where: { $0.state == .unavailable }) { throw ExitStatus.exit(ExitStatus.failure) }
            if states.contains(where: { $0.state == .partial }) { throw ExitStatus.exit(ExitStatus.partial) }
            if states.contains(where: \.reachedNoDevice) { throw ExitStatus.exit(ExitStatus.undelivered) }
        }

        /// Each step of `run` that the hub accepted notifications from (the one `--step` names, when given) and that
        /// still sends in the pipeline file, with how many it accepted and a sample of their ids taken by the store,
        /// which never loads every item of a large run.
        private func sampled(_ run: RunRecord, in journal: any RunStore, sending: Set<Int>) async throws
            -> [(step: Int, stepId: String, accepted: Int, ids: NotificationSample?)]
        {
            do {
                let accepted = try await journal.counts(run: run.id).filter { count in
                    count.state == .accepted && count.count > 0 && sending.contains(count.step)
                        && (step.map { $0 == count.step } ?? true)
                }
                let ledger = journal.ledger(for: run, lock: nil)
                var samples: [(step: Int, stepId: String, accepted: Int, ids: NotificationSample?)] = []
                for count in accepted.sorted(by: { $0.step < $1.step }) {
                    samples.append(
                        (
                            count.step, count.stepId, count.count,
                            try await ledger.notificationIds(step: count.step, sample: sample)
                        ))
                }
                return samples
            } catch let error as RunStoreError {
                throw CommandFailure("the run journal: \(error.message)")
            } catch let error as LedgerError {
                throw CommandFailure("the run journal: \(error.message)")
            }
        }

        /// A session per sending step, from the pipeline file the run used, loaded as `pushline run` loads it.
        private func hubSessions(for run: RunRecord, console: Console, transport: any HubTransport) async throws
            -> [Int: HubSession]
        {
            let loaded = try await RunPipeline.load(run, parameters: try parameters.values(), console: console)
            return try loaded.hubs(right: .send).mapValues {
                try RunPipeline.session($0, transport: transport, console: console)
            }
        }

        /// Writes each completed step's counts into its journalled outputs; returns the steps written.
        private func keep(
            _ read: [(step: Int, stepId: String, outcomes: DeliveryOutcomes)], run: RunRecord, journal: any RunStore,
            console: Console
        ) async -> Set<Int> {
            let ledger = journal.ledger(for: run, lock: nil)
            var kept: Set<Int> = []
            for (index, _, outcomes) in read where outcomes.final > 0 {
                do {
                    guard var completed = try await ledger.completedStep(index) else { continue }
                    var read = OutcomeOutputs()
                    read.read(outcomes)
                    completed.outputs.merge(read.outputs) { _, new in new }
                    try await ledger.recordCompleted(completed)
                    kept.insert(index)
                } catch {
                    console.errorLine(
                        "pushline: warning: cannot keep step \(index)'s outcomes in the journal: \(error.message)")
                }
            }
            return kept
        }

        private func print(
            _ read: [(step: Int, stepId: String, outcomes: DeliveryOutcomes)], run: RunRecord, kept: Set<Int>,
            console: Console
        ) {
            if format == .json {
                let steps: [ReportValue] = read.map { step, stepId, outcomes in
                    .object([
                        ReportField("step", .int(step)), ReportField("stepId", .string(stepId)),
                        ReportField("outcomes", outcomes.report),
                        ReportField("kept", .bool(kept.contains(step))),
                    ])
                }
                console.line(
                    JSONText.encode(
                        ReportValue.object([ReportField("run", .string(run.id)), ReportField("steps", .array(steps))])))
                return
            }
            for (step, stepId, outcomes) in read {
                console.line("step \(step) \(stepId):")
                for line in outcomes.lines { console.line("  \(line)") }
                if outcomes.reachedNoDevice { console.line("  \(outcomes.reachedNoDeviceWarning)") }
                if kept.contains(step) { console.line("  kept with the step's outputs in the journal") }
            }
        }
    }
}
