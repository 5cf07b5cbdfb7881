import ArgumentParser
import Engine
import Foundation
import HubEmulator
import HubWire
import PipelineConfig
import PipelineCore
import PipelineTesting
import PushlineLogging
import RunFlow
import Synchronization

/// `pushline demo`: the seed tutorial, run for real against an emulator started in this process.
///
/// Nothing here is demo-only: the pipeline is loaded, built and run by the same loader, engine, journal
/// and HTTP transport as `pushline run`, with the hub's connection string pointing at the embedded
/// emulator. What the demo adds is the telling: the deliveries, the requests, what to try next.
struct DemoCommand: AsyncParsableCommand, EnvironmentFileCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the seed tutorial against a local emulator and show what the device received.",
        discussion: """
            Starts the NH emulator in this process on a free loopback port (hub 'myhub', fresh keys), runs \
            the seed tutorial (pipelines/seed-tutorial.yaml, or the copy inside the binary outside a checkout) against it \
            as `pushline run` would (sign, register installation \
            seed-1 with tag 12345 and genericTemplate, render, send "Hello from Postman!" to 12345), then \
            prints what the device received and every request made (Authorization redacted). It runs anywhere; \
            `pushline init` writes the tutorial out. The pipeline reads NH_CONNECTION and NH_HUB, which the \
            demo sets to the emulator's. The run journal is a temporary one, removed afterwards.

            With --keep-running the emulator stays up and its connection string is printed, for the \
            walkthrough in docs/getting-started.md; stop it with Ctrl-C.

            EXAMPLES:
              pushline demo
              pushline demo --keep-running --port 8080
              pushline demo --pipeline pipelines/notify-user.yaml
              pushline demo --param message="Hello from the demo"
              pushline demo --pipeline digest.yaml --emulator-config emulator.yaml

            \(ExitStatus.help([
                .ok, .init("1", "a step of the demo's run failed (the report says which)"),
                .init("2", "a --pipeline that does not exist or is invalid, or a bad option"),
                .init("3", "the run was partial: some items failed (the report lists them)"),
                .init("4", "undelivered: the outcomes a send read show no device was reached"),
            ]))
            """)

    /// The pipeline the demo runs unless told otherwise: the checkout's, or the copy inside the binary.
    static let seedTutorial = SeedTutorial.path

    @OptionGroup var settings: EnvironmentFileOption

    @Option(help: "The pipeline to run against the emulator (it should read the hub from NH_CONNECTION and NH_HUB).")
    var pipeline = DemoCommand.seedTutorial

    @OptionGroup var parameters: ParameterOption

    @Flag(help: "Leave the emulator running after the demo and print its connection string.")
    var keepRunning = false

    @Option(help: "Port for the emulator (0 picks a free one).")
    var port = 0

    @Option(
        help: ArgumentHelp(
            "An emulator config file (as `pushline emulator --config` reads): its tier, dead channels, telemetry delay and faults. The pipeline runs against its first hub, with its first policy that has Listen, Manage and Send.",
            valueName: "file"))
    var emulatorConfig: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    }

    func run() async throws {
        let console = Console.current
        // Outside a checkout the seed tutorial comes from inside the binary, written to a folder of its own.
        var builtIn: String?
        if pipeline == Self.seedTutorial, !FileManager.default.fileExists(atPath: pipeline) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pushline-demo-seed-\(UUID().uuidString)"
            ).path
            try FileManager.default.createDirectory(atPath: folder + "/pipelines", withIntermediateDirectories: true)
            try SeedTutorial.text.write(toFile: folder + "/" + SeedTutorial.path, atomically: true, encoding: .utf8)
            builtIn = folder
        }
        defer { if let builtIn { try? FileManager.default.removeItem(atPath: builtIn) } }
        let pipeline = builtIn.map { $0 + "/" + SeedTutorial.path } ?? self.pipeline
        let shown =
            builtIn == nil
            ? pipeline : "the seed tutorial (built in; `pushline init` writes it to \(SeedTutorial.path))"
        guard FileManager.default.fileExists(atPath: pipeline) else {
            throw CommandFailure("cannot find the pipeline '\(pipeline)'; check the path")
        }
        let emulator = try await Emulator(configuration: try configuration(console))
        let server: EmbeddedEmulator
        do { server = try await EmbeddedEmulator.start(emulator, port: port) } catch let failure as EmulatorStartFailure
        {
            throw CommandFailure(failure.message)
        }
        let base = "http://127.0.0.1:\(server.port)/"
        let everything: Set<AccessRight> = [.listen, .manage, .send]
        guard let hub = emulator.configuration.hubs.first,
            let policy = hub.policies.first(where: { everything.isSubset(of: $0.rights) }),
            let full = emulator.connectionStrings(baseURL: base).first(where: {
                $0.hub == hub.name && $0.policy == policy.name
            })
        else {
            await server.stop()
            throw CommandFailure(
                "the emulator's first hub has no policy with Listen, Manage and Send; add one to the config")
        }
        console.line("Pushline demo: \(shown) against a local NH emulator (hub '\(hub.name)' at \(base))")
        console.line()
        let code: Int32
        do {
            code = try await runPipeline(
                pipeline, builtIn: builtIn != nil, connectionString: full.connectionString, hub: hub.name,
                emulator: emulator, keepsRunning: keepRunning, console: console)
        } catch {
            await server.stop()
            throw error
        }
        // A run that failed or was interrupted (Ctrl-C also stops the emulator) leaves nothing to keep running.
        guard keepRunning, code == ExitStatus.success else {
            await server.stop()
            console.line("emulator stopped")
            if code != ExitStatus.success { throw ExitStatus.exit(code) }
            return
        }
        // What the walkthrough then sends is all `/_emulator/deliveries` lists, not the demo's own sends besides.
        await emulator.clearDeliveries()
        console.line()
        console.line("The emulator keeps running (the demo's deliveries cleared). In another terminal, paste:")
        // The emulator's own key, printed on purpose (as `pushline emulator` does): it guards nothing else.
        console.line("  export NH_CONNECTION='\(full.connectionString)'")
        console.line("  export NH_HUB=\(hub.name)")
        console.line("  export NH_EMULATOR=\(base.dropLast())")
        console.line("then follow the walkthrough in docs/getting-started.md. Stop the emulator with Ctrl-C.")
        await server.waitUntilStopped()
        console.line("emulator stopped")
    }

    /// The emulator's configuration: `--emulator-config`, or one hub `myhub` with fresh keys.
    private func configuration(_ console: Console) throws -> EmulatorConfiguration {
        guard let emulatorConfig else { return .standardLocal() }
        let diagnostics = DiagnosticCollector()
        let loaded = EmulatorConfigDecoder.load(
            emulatorConfig, environment: console.environment, diagnostics: diagnostics)
        for diagnostic in diagnostics.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
        guard let loaded else { throw ExitStatus.exit(ExitStatus.invalidInput) }
        return loaded
    }

    /// Runs the pipeline as `run` does, then shows the deliveries, the requests and the next commands.
    private func runPipeline(
        _ pipeline: String, builtIn: Bool, connectionString: String, hub: String, emulator: Emulator,
        keepsRunning: Bool, console: Console
    ) async throws -> Int32 {
        var environment = console.environment
        environment["NH_CONNECTION"] = connectionString
        environment["NH_HUB"] = hub
        let loaded = await LoadedPipeline.load(
            pipeline, purpose: .run, console: console, environment: environment,
            parameters: try parameters.values())
        for diagnostic in loaded.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
        guard let built = loaded.pipeline else {
            console.errorLine("\(pipeline): not run: \(DiagnosticPrinter.summary(loaded.diagnostics))")
            return ExitStatus.invalidInput
        }
        guard let logger = PushlineLogging.logger(label: "pushline", level: "warning") else {
            throw CommandFailure("cannot create the logger")
        }
        // A journal of its own: the emulator's keys are new every time, so its runs would only clutter
        // the operator's journal.
        let journalDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-demo-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: journalDirectory) }
        let traces = Mutex<[HubTrace]>([])
        var live = PipelineRun(store: journalDirectory + "/journal.sqlite")
        live.trace = { trace in traces.withLock { $0.append(trace) } }
        try FileManager.default.createDirectory(atPath: journalDirectory, withIntermediateDirectories: true)
        let engine = PipelineEngine(logger: logger, clock: console.clock)
        let outcome: PipelineRun.Outcome
        do {
            outcome = try await live.execute(built, registry: loaded.registry, engine: engine, console: console) {
                report, _ in
                console.out(TextReporter.format(report))
                console.line()
                console.line("What the devices received (from the emulator):")
                let deliveries = await emulator.deliveries()
                if deliveries.isEmpty { console.line("  nothing") }
                for delivery in deliveries {
                    let device =
                        delivery.installationId.map { "installation \($0)" }
                        ?? delivery.registrationId.map { "registration \($0)" } ?? delivery.pushChannel
                    let template = delivery.template.map { ", template \($0)" } ?? ""
                    console.line("  \(device) (\(delivery.platform)\(template)): \(delivery.payload)")
                }
                console.line()
                console.line("The requests Pushline made (Authorization redacted):")
                for trace in traces.withLock({ $0 }) {
                    for line in trace.requestLines { console.line("  \(line)") }
                    console.line("  \(trace.outcomeLine)")
                    console.line()
                }
            }
        } catch let error as RunFlowError {
            throw error.commandError(console: console)
        }
        // The journal is a fresh one, so a completed earlier run cannot happen; it would be a success.
        let code = outcome.exitCode
        // Suggestions to paste as they are, the way this process was started; none for what is about to keep running.
        let command = Invocation.current(environment: console.environment)
        var suggestions = [
            builtIn
                ? ("\(command) init", "write the seed tutorial and a starter project into this folder")
                : ("\(command) run \(pipeline) --dry-run", "the same requests, signed and rendered, nothing sent"),
            ("\(command) validate pipelines/", builtIn ? "then check them" : "check every example pipeline"),
        ]
        if !keepsRunning {
            suggestions.insert(
                (
                    "\(command) demo --keep-running",
                    "keep the emulator up and follow the walkthrough in docs/getting-started.md"
                ), at: 0)
            suggestions.append(
                ("\(command) emulator", "run the emulator on its own (port 8080; --port 0 picks a free one)"))
        }
        let width = suggestions.map(\.0.count).max() ?? 0
        console.line("Next:")
        for (line, why) in suggestions { console.line("  \(line.padding(to: width))   \(why)") }
        return code
    }
}
