import Logging
import OTel
import ServiceLifecycle
import Synchronization

/// Exports the spans of one command (`run`, `serve`) when the environment asks for it: swift-otel's tracer is
/// installed once for the process as swift-distributed-tracing's, which the spans of runs, steps and requests are
/// recorded through, and at the command's end the exporter is shut down gracefully, which sends what is buffered
/// before the process exits.
package enum TelemetryExport {
    /// How long the export may take once the command is done: then what is not sent is dropped.
    package static let shutdownLimit: Duration = .seconds(10)

    /// Whether the process's tracer is installed (swift-otel's bootstrap may run once per process).
    private static let bootstrapped = Mutex(false)

    /// Runs `body`; with spans exported when `environment` has `OTEL_EXPORTER_OTLP_ENDPOINT`. A tracing setup that
    /// fails is a warning (`warn`), never the command's failure.
    package static func run<T>(
        environment: [String: String], warn: @escaping @Sendable (String) -> Void,
        _ body: () async throws -> T
    ) async throws -> T {
        guard let settings = TelemetrySettings(environment) else { return try await body() }
        settings.warnings.forEach(warn)
        guard
            bootstrapped.withLock({ done in
                defer { done = true }
                return !done
            })
        else {
            // The first command's exporter has shut down already: spans recorded now would go nowhere.
            warn("tracing: a second traced command in one process is not traced")
            return try await body()
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "pushline"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.diagnosticLogLevel = .warning
        configuration.diagnosticLogger = .custom(TelemetryDiagnostics.logger(warn))
        // A collector that does not answer must not hold a cron run's exit for long (the environment may say
        // otherwise for these two; the shutdown's own limit below holds whatever they say).
        configuration.traces.otlpExporter.timeout = .seconds(5)
        configuration.traces.batchSpanProcessor.exportTimeout = .seconds(10)
        let service: any Service
        do {
            service = try OTel.bootstrap(configuration: configuration, environment: settings.environment)
        } catch {
            warn("tracing: off, swift-otel could not start: \(error)")
            return try await body()
        }
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: service)],
            logger: Logger(label: "pushline.telemetry", factory: { _ in SwiftLogNoOpLogHandler() }))
        groupConfiguration.maximumGracefulShutdownDuration = shutdownLimit
        groupConfiguration.maximumCancellationDuration = .seconds(1)
        let group = ServiceGroup(configuration: groupConfiguration)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await body())
            } catch {
                outcome = .failure(error)
            }
            await group.triggerGracefulShutdown()
            // The exporter reports its own failures (a collector that is down); they do not change the command's end.
            while (try? await tasks.next()) != nil {}
            return try outcome.get()
        }
    }
}
