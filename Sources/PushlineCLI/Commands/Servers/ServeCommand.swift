import ArgumentParser
import Engine
import HTTPServing
import HubHTTP
import PipelineConfig
import PipelineCore
import PushService
import RunFlow
import Telemetry

/// `pushline serve SERVICE.yaml`: the notify-users backend, configured in YAML.
struct ServeCommand: AsyncParsableCommand, EnvironmentFileCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the notify-users backend a service file describes, until Ctrl-C or SIGTERM.",
        discussion: """
            Devices register through it (POST /api/register, PUT and DELETE /api/register/{id}) and signed-in \
            users notify each other by name (POST /api/notifications), in the wire shapes of the Notification \
            Hubs "notify users" tutorial. Users sign in with HTTP Basic against an htpasswd file of bcrypt \
            hashes; senders, and the official sample's apps (PUT /api/notifications/installations, POST \
            /api/notifications/requests), use an API key in the `apikey` header. The server adds the caller's \
            identity tag itself and keeps only client tags the service file allows. GET /healthz says it is alive, \
            GET /readyz that the hub accepts its key, GET /metrics (admin scope) counts requests in Prometheus text. Listens on loopback unless the file or --host says otherwise: put a \
            TLS-terminating proxy in front of it for other machines. With OTEL_EXPORTER_OTLP_ENDPOINT set, each \
            request is an OpenTelemetry span, its hub requests under it (docs/tracing.md).

            EXAMPLES:
              pushline serve pipelines/notify-users.service.yaml
              pushline serve pipelines/notify-users.service.yaml --port 9000

            \(ExitStatus.help([
                .init("0", "stopped by Ctrl-C or SIGTERM; requests in flight finished"),
                .init("1", "the server could not start (the port is taken) or stopped on an error"),
                .init("2", "an invalid service file, users file or option"),
            ]))
            """)

    @OptionGroup var settings: EnvironmentFileOption

    @Argument(help: "The service file (YAML).")
    var service: String

    @Option(help: "Address to listen on (overrides the file's service.listen.host).")
    var host: String?

    @Option(help: "Port to listen on (overrides the file's service.listen.port; 0 picks a free one).")
    var port: Int?

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
    }

    func run() async throws {
        let console = Console.current
        try await TelemetryExport.run(
            environment: console.environment, warn: { console.errorLine("pushline: warning: \($0)") }
        ) {
            try await serve(console: console)
        }
    }

    private func serve(console: Console) async throws {
        let diagnostics = DiagnosticCollector()
        let loaded = await ServiceLoader.load(
            path: service, purpose: .run, environment: console.environment, diagnostics: diagnostics)
        for diagnostic in diagnostics.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
        guard let loaded else {
            console.errorLine(DiagnosticPrinter.summary(diagnostics.diagnostics))
            throw ExitStatus.exit(ExitStatus.invalidInput)
        }
        let executor = HTTP1Client(trust: try console.hubTrust())
        let log = AccessLog(json: !console.isTerminal) { console.errorLine($0) }
        let server: PushServer
        do {
            server = try PushServer(
                settings: loaded.settings, users: loaded.users,
                transport: RetryingTransport(executor: executor), clock: console.clock, log: log,
                pipelines: loaded.pipelines, runConsole: console, bearer: loaded.bearer)
        } catch {
            await executor.shutdown()
            throw CommandFailure(error.message + (error.hint.map { " (\($0))" } ?? ""))
        }
        let host = self.host ?? loaded.settings.host
        let http = HTTPServer(
            options: ServerOptions(host: host, port: port ?? loaded.settings.port, serverName: "Pushline", quiet: true),
            responder: server.responder())
        let settings = loaded.settings
        let users = loaded.users?.count ?? 0
        do {
            try await http.run { bound in
                let display = host.contains(":") ? "[\(host)]" : host
                console.line(
                    "Pushline serving on http://\(display):\(bound)/ (hub '\(settings.hub.name)'; \(users) user\(users == 1 ? "" : "s"), "
                        + "\(settings.apiKeys.count) API key\(settings.apiKeys.count == 1 ? "" : "s"))")
                console.line("stop with Ctrl-C (requests in flight finish)")
            }
        } catch {
            await executor.shutdown()
            console.errorLine("error: the server stopped: \(error)")
            throw ExitStatus.exit(ExitStatus.failure)
        }
        // Pipeline runs started over HTTP finish (or, cut off harder, resume on their next start).
        await server.waitForRuns()
        await server.closeRunStore()
        await executor.shutdown()
        log.flush()
        console.line("server stopped")
    }
}
