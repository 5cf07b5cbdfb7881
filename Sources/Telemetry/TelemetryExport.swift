import Logging
import OTel
import PipelineCore
import ServiceLifecycle
import Synchronization

/// Exports the spans of one command (`run`, `serve`) when the environment asks for it: swift-otel's tracer is
/// installed once for the process, the command runs with PipelineCore's tracer set, and at its end the exporter is
/// shut down gracefully, which sends what is buffered before the process exits.
package enum TelemetryExport {
    /// Whether the process's tracer is installed (swift-otel's bootstrap may run once per process).
    private static let bootstrapped = Mutex(false)

    /// Runs `body`; with spans exported when `environment` has `OTEL_EXPORTER_OTLP_ENDPOINT`. A tracing setup that
    /// fails is a warning (`warn`), never the command's failure.
    package static func run<T>(environment: [String: String], warn: (String) -> Void, _ body: () async throws -> T) async throws -> T {
        guard let settings = TelemetrySettings(environment) else { return try await body() }
        settings.warnings.forEach(warn)
        guard bootstrapped.withLock({ done in defer { done = true }; return !done }) else {
            warn("tracing: already set up in this process; these spans go with the first")
            return try await RunTracing.$current.withValue(OTelRunTracer()) { try await body() }
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "pushline"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.diagnosticLogLevel = .warning
        // A collector that does not answer must not hold a cron run's exit for long.
        configuration.traces.otlpExporter.timeout = .seconds(5)
        configuration.traces.batchSpanProcessor.exportTimeout = .seconds(10)
        let service: any Service
        do {
            service = try OTel.bootstrap(configuration: configuration, environment: settings.environment)
        } catch {
            warn("tracing: off, swift-otel could not start: \(error)")
            return try await body()
        }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: service)], logger: Logger(label: "pushline.telemetry", factory: { _ in SwiftLogNoOpLogHandler() })))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await RunTracing.$current.withValue(OTelRunTracer()) { try await body() })
            } catch {
                outcome = .failure(error)
            }
            await group.triggerGracefulShutdown()
            // The exporter reports its own failures (a collector that is down); they do not change the command's end.
            while let _ = try? await tasks.next() {}
            return try outcome.get()
        }
    }
}
