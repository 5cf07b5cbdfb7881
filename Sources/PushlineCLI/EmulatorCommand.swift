import ArgumentParser
import HubEmulator
import HubWire
import PipelineCore
import RunFlow

/// `pushline emulator`: a local Notification Hubs-compatible server for rehearsals and tests.
struct EmulatorCommand: AsyncParsableCommand, EnvironmentFileCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulator",
        abstract: "Run a local Notification Hubs emulator (NH REST API over HTTP) until Ctrl-C or SIGTERM.",
        discussion: """
            Prints a connection string for each hub and policy on start. Without --config it serves hub \
            'myhub' in namespace 'local' with freshly generated Full and Listen keys. What each device \
            received is at GET /_emulator/deliveries (loopback only).

            EXAMPLES:
              pushline emulator
              pushline emulator --port 9090 --config emulator.yaml --state emulator-state.json

            \(ExitStatus.help([
                .init("0", "stopped by Ctrl-C or SIGTERM; in-flight requests finished and the state was saved"),
                .init("1", "the emulator could not start (the port is taken) or stopped on an error"),
                .init("2", "an invalid configuration file, state file or option"),
            ]))
            """)

    @OptionGroup var settings: EnvironmentFileOption

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "Emulator config file (YAML): namespace, tier, hubs and policies, faults.")
    var config: String?

    @Option(help: "Keep installations, registrations and scheduled sends in this file across restarts.")
    var state: String?

    @Option(help: ArgumentHelp("Run the emulator's clock this far ahead of this machine's (e.g. 2h; -2h is behind), to rehearse clock skew.",
                               valueName: "duration"))
    var clockOffset: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        if let clockOffset {
            guard let seconds = EmulatorConfigDecoder.signedDuration(clockOffset), abs(seconds) <= NHLimits.maxScheduleAheadSeconds else {
                throw ValidationError("--clock-offset must be a duration within 7 days either way, such as 2h or -90s")
            }
        }
    }

    func run() async throws {
        let console = Console.current
        var configuration: EmulatorConfiguration
        if let config {
            let diagnostics = DiagnosticCollector()
            guard let loaded = EmulatorConfigDecoder.load(config, environment: console.environment, diagnostics: diagnostics) else {
                diagnostics.diagnostics.forEach { console.err(DiagnosticPrinter.format($0)) }
                throw ExitStatus.exit(ExitStatus.invalidInput)
            }
            diagnostics.diagnostics.forEach { console.err(DiagnosticPrinter.format($0)) }
            configuration = loaded
        } else {
            configuration = .standardLocal()
        }
        // The flag wins over the file's `clock-offset`, as flags do.
        if let clockOffset, let seconds = EmulatorConfigDecoder.signedDuration(clockOffset) {
            configuration.clockOffset = seconds
        }
        let emulator: Emulator
        do {
            emulator = try await Emulator(configuration: configuration, statePath: state)
        } catch {
            throw CommandFailure("cannot load the state file '\(state ?? "")': \(error)")
        }
        let host = self.host
        do {
            try await emulator.run(host: host, port: port) { port in
                console.out(Self.banner(emulator, host: host, port: port, state: self.state))
            }
        } catch {
            console.errorLine("error: the emulator stopped: \(error)")
            throw ExitStatus.exit(ExitStatus.failure)
        }
        console.line("emulator stopped\(state.map { "; state saved to \($0)" } ?? "")")
    }

    /// What an operator needs to start: the URL, the connection strings, the side channel.
    static func banner(_ emulator: Emulator, host: String, port: Int, state: String?) -> String {
        let displayHost = host.contains(":") ? "[\(host)]" : host
        let base = "http://\(displayHost):\(port)/"
        let configuration = emulator.configuration
        var text = "Pushline NH emulator listening on \(base) (namespace '\(configuration.namespace)', \(configuration.tier.rawValue) tier)\n"
        for (hub, policy, connectionString) in emulator.connectionStrings(baseURL: base) {
            text += "  hub \(hub), policy \(policy):\n    \(connectionString)\n"
        }
        text += "deliveries: \(base)_emulator/deliveries\n"
        if configuration.clockOffset != 0 {
            let offset = configuration.clockOffset
            text += "clock: \(ConfigDuration.format(abs(offset))) \(offset > 0 ? "ahead of" : "behind") this machine's (--clock-offset)\n"
        }
        if let state { text += "state file: \(state)\n" }
        text += "stop with Ctrl-C (in-flight requests finish, state is saved)\n"
        return text
    }
}
