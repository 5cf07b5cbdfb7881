import ArgumentParser
import Engine
import Foundation
import HubHTTP
import HubWire
import PipelineCore
import RunFlow
import RunStore

/// `pushline fcmv1`: the move from legacy FCM (NH's `gcm` platform, whose Google API was retired on 20 June 2024)
/// to FCM v1.
struct FcmV1Command: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fcmv1",
        abstract: "Move legacy FCM (gcm) devices and templates to FCM v1.",
        discussion: """
            Google retired the legacy FCM API on 20 June 2024, and NH treats FCM v1 as a platform of its own: a hub
            still holding `gcm` installations reaches no Android phone with them. `move` re-registers the legacy
            installations a run wrote as `fcmv1`; `translate` writes a legacy template or payload in the v1 shape.
            """,
        subcommands: [Move.self, Translate.self])

    struct Move: AsyncParsableCommand, JournalCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract:
                "Re-register a run's legacy FCM (gcm) installations as fcmv1, templates translated; a dry run unless --apply.",
            discussion: """
                Reads back from the hub each installation the run's `register` steps wrote (NH cannot list
                installations, so the journal is the list). Each `gcm` one is planned as `fcmv1` with the same token,
                tags, user id and push variables, and every template body translated: the payload inside `message`,
                `data` values as strings, `time_to_live` as `android.ttl` ("3600s"), `priority` as `android.priority`
                (high or normal), Android-only notification fields under `android.notification`. An installation with a
                template that cannot be translated faithfully (not JSON on its own, an unknown key, `dry_run: true`)
                stays as it is and is listed with the reason. Without --apply nothing is changed: the plan is printed,
                each distinct template translation shown once. With --apply, the planned installations are written by a
                journalled run of a `register` step (`fcmv1-move-<hub>` in `runs list`). Afterwards, change the
                pipeline's own `register` source and templates to fcmv1 (or its next run writes them back as gcm),
                then send and read the outcomes (an `outcomes` step, or `pushline runs outcomes RUN`): the counts come under fcmv1.

                EXAMPLES:
                  pushline fcmv1 move 20261123-030000-3f9c2a
                  pushline fcmv1 move 20261123-030000 --apply
                  pushline fcmv1 move 20261123-030000 --format json

                \(ExitStatus.help([.ok, .init("1", "the hub could not be read, or the move run failed"),
                                   .init("2", "no such run, a run still running, a pipeline file that cannot be loaded, or a bad option"),
                                   .init("3", "with --apply: some installations were not moved (the output lists them and why)")]))
                """)

        @OptionGroup var store: JournalOption
        @OptionGroup var parameters: ParameterOption
        @Argument(help: "The run id (a unique prefix will do).") var id: String
        @Flag(help: "Write the planned installations (a journalled run); without it nothing is changed.") var apply =
            false
        @Option(help: "Output format: text or json.") var format: OutputFormat = .text

        func run() async throws {
            let console = Console.current
            let (run, items, loaded) = try await RunPipeline.ended(
                id, store: store, parameters: try parameters.values(),
                doing: "move its devices", console: console)
            let plan = try await RunPipeline.reading { executor in
                try await FcmV1Move(transport: RetryingTransport(executor: executor), console: console).plan(
                    items: items, pipeline: loaded)
            }
            FcmV1Report(plan: plan, run: run, applying: apply).print(format: format, console: console)
            guard apply else { return }
            // Standard output holds the JSON alone; the move's own report goes with the warnings.
            let moving = format == .json ? console.writing(out: { console.err($0) }, err: { console.err($0) }) : console
            var worst = ExitStatus.success
            for (hubName, moves) in Dictionary(grouping: plan.moves, by: \.hub).sorted(by: { $0.key < $1.key }) {
                guard let hub = loaded.pipeline.document.hub(hubName) else { continue }
                worst = max(
                    worst, try await write(moves.map(\.moved), to: hub, registry: loaded.registry, console: moving))
            }
            if worst == ExitStatus.success, !plan.refused.isEmpty {
                console.errorLine(
                    "warning: \(plan.refused.count) legacy FCM installation\(plan.refused.count == 1 ? " was" : "s were") not moved (listed above)"
                )
                worst = ExitStatus.partial
            }
            if worst != ExitStatus.success { throw ExitStatus.exit(worst) }
        }

        /// The installations as a device file, written by a journalled `register` run in `mode: put`. The file holds
        /// FCM tokens: it lives in a folder only this user can read, and goes when the run ends. A move cut off is
        /// finished by the same command: what moved is on fcmv1 now and is left alone, the rest is planned again
        /// (PUT is idempotent: nothing is written twice to any effect, nothing skipped).
        private func write(
            _ installations: [Installation], to hub: HubDeclaration, registry: StepRegistry, console: Console
        ) async throws -> Int32 {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var text = ""
            for installation in installations.sorted(by: { $0.installationId < $1.installationId }) {
                text += String(decoding: try encoder.encode(installation), as: UTF8.self) + "\n"
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushline-fcmv1-\(getuid())")
                .path
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
            // Named by its content: the same plan is the same run (the run's identity includes the path).
            let path = folder + "/\(hub.name)-\(ContentDigest.hex(text).prefix(16)).jsonl"
            guard
                FileManager.default.createFile(
                    atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
            else {
                throw CommandFailure("cannot write the move's device file in \(folder)", exitCode: ExitStatus.failure)
            }
            defer { try? FileManager.default.removeItem(atPath: path) }
            let at = SourceLocation(file: "fcmv1-move-\(hub.name).yaml", line: 1, column: 1)
            let outcome = try await RegisterRun(console: console, store: store.journal).run(
                name: "fcmv1-move-\(hub.name)", hub: hub,
                options: [
                    ("mode", RegisterRun.scalar("put", at: at)), ("installations", RegisterRun.scalar(path, at: at)),
                ],
                registry: registry)
            if outcome.isAlreadyCompleted {
                console.line("these installations were moved by an earlier run of the same plan")
            }
            return outcome.exitCode
        }
    }

    struct Translate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "translate",
            abstract: "Print a legacy FCM template or payload (JSON) in the FCM v1 shape.",
            discussion: """
                Reads a legacy FCM body (an NH `gcm` template or a native payload) and prints its FCM v1 form on
                standard output, compact with sorted keys; what was dropped or converted goes to standard error.
                Template expressions inside strings are kept. A body already in the v1 shape is checked instead.

                EXAMPLES:
                  pushline fcmv1 translate templates/alert.gcm.json > templates/alert.fcmv1.json

                \(ExitStatus.help([.ok, .init("2", "a file that cannot be read, or a body that cannot be translated faithfully (the reason is printed)")]))
                """)

        @Argument(help: "The legacy FCM JSON file.") var file: String

        func run() throws {
            let console = Console.current
            let text: String
            do { text = try TextFile.read(file, limit: 1 << 20) } catch {
                throw CommandFailure(error.message(what: "template file", name: file))
            }
            if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                object["message"] != nil
            {
                let problems = FcmV1Shape.problems(Array(text.utf8))
                guard problems.isEmpty else {
                    throw CommandFailure("\(file) is in the FCM v1 shape, but: " + problems.joined(separator: "; "))
                }
                console.errorLine("\(file) is already in the FCM v1 shape")
                console.out(text)
                return
            }
            do {
                let translation = try LegacyFcmPayload.translate(text)
                for note in translation.notes { console.errorLine("note: \(note)") }
                console.line(translation.body)
            } catch {
                throw CommandFailure("\(file): \(error.message)")
            }
        }
    }
}
