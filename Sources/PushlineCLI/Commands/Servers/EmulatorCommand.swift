import ArgumentParser
import Foundation
import HTTPServing
import HubEmulator
import HubWire
import PipelineCore
import PipelineTesting
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

            With --tls it serves HTTPS, as NH does, with a certificate from a local certificate authority it \
            makes once and keeps (beside --state, in --tls-dir, or in a folder of this user's under the system's \
            temporary folder). Its connection strings then take the usual Endpoint=sb://… form, which clients turn \
            into https:// URLs. Trust the printed ca.pem: pushline with PUSHLINE_CA_FILE, curl with --cacert, \
            Python with ssl.create_default_context(cafile=…), Node.js with NODE_EXTRA_CA_CERTS.

            EXAMPLES:
              pushline emulator
              pushline emulator --port 9090 --config emulator.yaml --state emulator-state.json
              pushline emulator --tls --port 8443

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

    @Option(
        help: ArgumentHelp(
            "Run the emulator's clock this far ahead of this machine's (e.g. 2h; -2h is behind), to rehearse clock skew.",
            valueName: "duration"))
    var clockOffset: String?

    @Flag(help: "Serve HTTPS with a certificate from a local certificate authority (see above).")
    var tls = false

    @Option(
        help: ArgumentHelp(
            "Keep the local certificate authority and the server's certificate in this folder (with --tls).",
            valueName: "folder"))
    var tlsDir: String?

    @Option(
        help: ArgumentHelp(
            "Another name the server's certificate covers besides localhost, 127.0.0.1, ::1 and --host (with --tls; repeatable).",
            valueName: "name"))
    var tlsName: [String] = []

    func validate() throws {
        if !tls, tlsDir != nil || !tlsName.isEmpty { throw ValidationError("--tls-dir and --tls-name need --tls") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        if let clockOffset {
            guard let seconds = EmulatorConfigDecoder.signedDuration(clockOffset),
                abs(seconds) <= NHLimits.maxScheduleAheadSeconds
            else {
                throw ValidationError("--clock-offset must be a duration within 7 days either way, such as 2h or -90s")
            }
        }
    }

    func run() async throws {
        let console = Console.current
        var configuration: EmulatorConfiguration
        if let config {
            let diagnostics = DiagnosticCollector()
            guard
                let loaded = EmulatorConfigDecoder.load(
                    config, environment: console.environment, diagnostics: diagnostics)
            else {
                for diagnostic in diagnostics.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
                throw ExitStatus.exit(ExitStatus.invalidInput)
            }
            for diagnostic in diagnostics.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
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
        let certificates: LocalCertificates?
        do {
            certificates =
                tls
                ? try LocalCertificates.prepare(
                    folder: tlsFolder(environment: console.environment), names: certificateNames) : nil
        } catch {
            console.errorLine("error: \(error)")
            throw ExitStatus.exit(ExitStatus.failure)
        }
        do {
            try await emulator.run(host: host, port: port, tls: certificates?.server) { port in
                console.out(
                    Self.banner(emulator, host: host, port: port, state: self.state, trust: certificates?.authorityFile)
                )
            }
        } catch {
            console.errorLine("error: the emulator stopped: \(error)")
            throw ExitStatus.exit(ExitStatus.failure)
        }
        console.line("emulator stopped\(state.map { "; state saved to \($0)" } ?? "")")
    }

    /// Where the local certificate authority is kept: `--tls-dir`, beside `--state`, or this user's folder under
    /// the temporary folder, so that a client set up to trust it once keeps trusting it.
    func tlsFolder(environment: [String: String]) -> String {
        if let tlsDir { return tlsDir }
        if let state {
            return URL(fileURLWithPath: state).deletingLastPathComponent().appendingPathComponent(
                "pushline-emulator-tls"
            ).path
        }
        let temporary = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return URL(fileURLWithPath: temporary).appendingPathComponent("pushline-emulator-tls-\(getuid())").path
    }

    /// The names the server's certificate covers: loopback always, the address it listens on unless that is every
    /// address, and the names asked for.
    var certificateNames: [String] {
        var names = ["localhost", "127.0.0.1", "::1"]
        if !["0.0.0.0", "::", ""].contains(host) { names.append(host) }
        names += tlsName
        var seen = Set<String>()
        return names.filter { seen.insert($0.lowercased()).inserted }
    }

    /// What an operator needs to start: the URL, the connection strings, the side channel, and the file to trust.
    static func banner(_ emulator: Emulator, host: String, port: Int, state: String?, trust: String? = nil) -> String {
        let displayHost = host.contains(":") ? "[\(host)]" : host
        let base = "\(trust == nil ? "http" : "https")://\(displayHost):\(port)/"
        let configuration = emulator.configuration
        var text =
            "Pushline NH emulator listening on \(base) (namespace '\(configuration.namespace)', \(configuration.tier.rawValue) tier)\n"
        // Over TLS the strings take NH's own form: clients map `sb://` to `https://`, as they do for Azure.
        let endpoint = trust == nil ? base : "sb://\(displayHost):\(port)/"
        for (hub, policy, connectionString) in emulator.connectionStrings(baseURL: endpoint) {
            text += "  hub \(hub), policy \(policy):\n    \(connectionString)\n"
        }
        if let trust {
            text += "trust: \(trust)\n"
            text +=
                "  (pushline: PUSHLINE_CA_FILE=\(trust); curl: --cacert; Python: ssl.create_default_context(cafile=…); "
                + "Node.js: NODE_EXTRA_CA_CERTS)\n"
        }
        text += "deliveries: \(base)_emulator/deliveries\n"
        if configuration.clockOffset != 0 {
            let offset = configuration.clockOffset
            text +=
                "clock: \(ConfigDuration.format(abs(offset))) \(offset > 0 ? "ahead of" : "behind") this machine's (--clock-offset)\n"
        }
        if let state { text += "state file: \(state)\n" }
        text += "stop with Ctrl-C (in-flight requests finish, state is saved)\n"
        return text
    }
}
