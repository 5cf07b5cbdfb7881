import Logging
import PipelineCore
import Synchronization
import Testing

@testable import Telemetry

@Suite("The OpenTelemetry settings Pushline passes to swift-otel")
struct TelemetrySettingsTests {
    @Test(
        "no endpoint, OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none: no spans at all",
        arguments: [
            [:], ["OTEL_EXPORTER_OTLP_ENDPOINT": " "], ["OTEL_SERVICE_NAME": "x"],
            ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "TRUE"],
            ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"],
        ])
    func off(environment: [String: String]) {
        #expect(TelemetrySettings(environment) == nil)
    }

    @Test("only OTEL_ variables pass, without logs, metrics or the SDK switch")
    func passed() throws {
        let settings = try #require(
            TelemetrySettings([
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces", "OTEL_SERVICE_NAME": "nightly",
                "NH_CONNECTION": "Endpoint=…",
                "OTEL_LOGS_EXPORTER": "otlp", "OTEL_METRICS_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "false",
            ]))
        #expect(
            settings.environment == [
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces", "OTEL_SERVICE_NAME": "nightly",
            ])
        #expect(settings.warnings.isEmpty)
    }

    @Test("values swift-otel would end the process on are changed, with a warning each")
    func fatalValuesAreDefused() throws {
        let settings = try #require(
            TelemetrySettings([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_PROPAGATORS": "tracecontext, baggage,b3",
                "OTEL_TRACES_SAMPLER": "jaeger_remote", "OTEL_TRACES_SAMPLER_ARG": "endpoint=x",
                "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
            ]))
        #expect(
            settings.environment == [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_PROPAGATORS": "tracecontext",
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
            ])
        #expect(settings.warnings.count == 3, "\(settings.warnings)")
        #expect(settings.warnings.contains("tracing: OTEL_PROPAGATORS baggage,b3 not supported; using tracecontext"))
        let onlyBaggage = try #require(
            TelemetrySettings(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_PROPAGATORS": "baggage"]))
        #expect(onlyBaggage.environment["OTEL_PROPAGATORS"] == "tracecontext")
    }
}

extension TelemetrySettingsTests {
    @Test("batch settings swift-otel cannot work with are dropped, with a warning")
    func batchSettings() throws {
        let settings = try #require(
            TelemetrySettings([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "0",
                "OTEL_BSP_SCHEDULE_DELAY": "5",
                "OTEL_BSP_EXPORT_TIMEOUT": "soon", "OTEL_BSP_MAX_QUEUE_SIZE": "4096",
            ]))
        #expect(settings.environment == ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_BSP_MAX_QUEUE_SIZE": "4096"])
        #expect(settings.warnings.count == 3)
        #expect(
            settings.warnings.contains(
                "tracing: OTEL_BSP_MAX_EXPORT_BATCH_SIZE=0 is not a whole number of at least 1; the default applies"))
    }
}

@Suite("swift-otel's own messages as Pushline writes them")
struct TelemetryDiagnosticsTests {
    @Test("warnings only, one line each, and never a setting's value")
    func quiet() {
        let lines = Mutex<[String]>([])
        let logger = TelemetryDiagnostics.logger { line in lines.withLock { $0.append(line) } }
        logger.info("Configuration updated from environment", metadata: ["environment_value": "x-api-key=SECRET"])
        logger.warning(
            "Failed to update configuration from environment",
            metadata: ["environment_value": "x-api-key=SECRET", "key": "OTEL_EXPORTER_OTLP_HEADERS"])
        logger.warning("Failed to export batch.", metadata: ["error": "connection refused"])
        #expect(
            lines.withLock { $0 } == [
                "pushline: warning: tracing: Failed to update configuration from environment",
                "pushline: warning: tracing: Failed to export batch. (error: connection refused)",
            ])
    }
}
