import ArgumentParser
import Foundation
import HubHTTP
import HubWire
import PipelineCore
import RunFlow
import RunStore

/// `pushline devices prune RUN`: the devices a run reached whose channel is dead, and (with `--delete`) their removal.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "Find (and remove) devices whose push channel is dead.",
        subcommands: [Prune.self])

    struct Prune: AsyncParsableCommand, JournalCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "List the devices of a run whose channel is dead, by reason; with --delete, delete them.",
            discussion: """
                Two sources, each read from the hub: the installations the run's `register` steps wrote, whose
                `pushChannelExpired` NH sets once the PNS refuses their channel; and the per-device PNS errors NH links
                from the telemetry of the run's notifications (PnsErrorDetailsUri), each read by its outcome (a dead
                channel: ExpiredChannel, BadChannel, … see `pushline notification outcomes`). Nothing is changed
                without --delete. With --delete, the dead installations and registrations are deleted by a journalled
                run of `register` steps in `mode: delete` (`runs show` lists it; a run cut off resumes when the same
                command runs again). The hubs are the pipeline's, from the pipeline file the run used (--env-file,
                --param).

                EXAMPLES:
                  pushline devices prune 20261123-030000-3f9c2a
                  pushline devices prune 20261123-030000 --delete
                  pushline devices prune 20261123-030000 --format json

                \(ExitStatus.help([.ok, .init("1", "the hub could not be read, or a deletion failed"),
                                   .init("2", "no such run, a run still running, a pipeline file that cannot be loaded, or a bad option"),
                                   .init("3", "with --delete: some deletions failed (the report lists them)")]))
                """)

        @OptionGroup var store: JournalOption
        @OptionGroup var parameters: ParameterOption
        @Argument(help: "The run id (a unique prefix will do).") var id: String
        @Option(help: "Notifications per sending step whose PNS error details are read, a uniform sample (1 to 1000).")
        var sample = 1000
        @Flag(
            help: "Delete the dead installations and registrations (a journalled run); without it nothing is changed.")
        var delete = false
        @Option(help: "Output format: text or json.") var format: OutputFormat = .text

        func validate() throws {
            guard (1...1000).contains(sample) else {
                throw ValidationError("--sample must be from 1 to 1000, found \(sample)")
            }
        }

        func run() async throws {
            let console = Console.current
            let (run, items, loaded) = try await RunPipeline.ended(
                id, store: store, parameters: try parameters.values(),
                doing: "prune its devices", console: console)
            let found = try await RunPipeline.reading { executor in
                try await DeadDeviceFinder(
                    transport: RetryingTransport(executor: executor), executor: executor, console: console
                )
                .find(run: run, items: items, pipeline: loaded, sample: sample)
            }
            print(found, run: run, console: console)
            guard delete else { return }
            try await DeadDeviceRemoval(console: console, store: store.journal).delete(found.dead, in: loaded)
        }

        private func print(_ found: DeadDeviceFinder.Found, run: RunRecord, console: Console) {
            if format == .json {
                console.line(
                    JSONText.encode(
                        ReportValue.object([
                            ReportField("run", .string(run.id)),
                            ReportField("checkedInstallations", .int(found.checkedInstallations)),
                            ReportField("readNotifications", .int(found.readNotifications)),
                            ReportField("dead", .array(found.dead.map(\.report))),
                            ReportField("notes", .array(found.notes.map(ReportValue.string))),
                        ])))
                return
            }
            console.line(
                "run \(run.id): \(found.checkedInstallations) installation\(found.checkedInstallations == 1 ? "" : "s") checked, "
                    + "PNS errors of \(found.readNotifications) notification\(found.readNotifications == 1 ? "" : "s") read"
            )
            for note in found.notes { console.line("  note: \(note)") }
            if found.dead.isEmpty {
                console.line("no dead channels found")
                return
            }
            for (reason, devices) in Dictionary(grouping: found.dead, by: \.reason).sorted(by: { $0.key < $1.key }) {
                console.line(
                    "\(reason) (\(PnsOutcome.named(reason)?.meaning ?? "the PNS refused the channel")): \(devices.count)"
                )
                for device in devices.prefix(20) { console.line("  \(device.line)") }
                if devices.count > 20 { console.line("  … and \(devices.count - 20) more (--format json lists all)") }
            }
            if !delete {
                console.line("nothing was changed; to delete these devices: pushline devices prune \(run.id) --delete")
            }
        }
    }
}
