import InMemoryTracing
import Logging
import PipelineCore
import Synchronization
@testable import Telemetry
import Testing
import Tracing

@Suite("The OpenTelemetry settings Pushline passes to swift-otel")
struct TelemetrySettingsTests {
    @Test("no endpoint, OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none: no spans at all", arguments: [
        [:], ["OTEL_EXPORTER_OTLP_ENDPOINT": " "], ["OTEL_SERVICE_NAME": "x"],
        ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "TRUE"],
        ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"],
    ])
    func off(environment: [String: String]) {
        #expect(TelemetrySettings(environment) == nil)
    }

    @Test("only OTEL_ variables pass, without logs, metrics or the SDK switch")
    func passed() throws {
        let settings = try #require(TelemetrySettings([
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces", "OTEL_SERVICE_NAME": "nightly", "NH_CONNECTION": "Endpoint=…",
            "OTEL_LOGS_EXPORTER": "otlp", "OTEL_METRICS_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "false",
        ]))
        #expect(settings.environment == ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces", "OTEL_SERVICE_NAME": "nightly"])
        #expect(settings.warnings.isEmpty)
    }

    @Test("values swift-otel would end the process on are changed, with a warning each")
    func fatalValuesAreDefused() throws {
        let settings = try #require(TelemetrySettings([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_PROPAGATORS": "tracecontext, baggage,b3",
            "OTEL_TRACES_SAMPLER": "jaeger_remote", "OTEL_TRACES_SAMPLER_ARG": "endpoint=x", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        ]))
        #expect(settings.environment == ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_PROPAGATORS": "tracecontext",
                                         "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"])
        #expect(settings.warnings.count == 3, "\(settings.warnings)")
        #expect(settings.warnings.contains("tracing: OTEL_PROPAGATORS baggage,b3 not supported; using tracecontext"))
        let onlyBaggage = try #require(TelemetrySettings(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_PROPAGATORS": "baggage"]))
        #expect(onlyBaggage.environment["OTEL_PROPAGATORS"] == "tracecontext")
    }
}

extension TelemetrySettingsTests {
    @Test("batch settings swift-otel cannot work with are dropped, with a warning")
    func batchSettings() throws {
        let settings = try #require(TelemetrySettings([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "0", "OTEL_BSP_SCHEDULE_DELAY": "5",
            "OTEL_BSP_EXPORT_TIMEOUT": "soon", "OTEL_BSP_MAX_QUEUE_SIZE": "4096",
        ]))
        #expect(settings.environment == ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_BSP_MAX_QUEUE_SIZE": "4096"])
        #expect(settings.warnings.count == 3)
        #expect(settings.warnings.contains("tracing: OTEL_BSP_MAX_EXPORT_BATCH_SIZE=0 is not a whole number of at least 1; the default applies"))
    }
}

@Suite("swift-otel's own messages as Pushline writes them")
struct TelemetryDiagnosticsTests {
    @Test("warnings only, one line each, and never a setting's value")
    func quiet() {
        let lines = Mutex<[String]>([])
        let logger = TelemetryDiagnostics.logger { line in lines.withLock { $0.append(line) } }
        logger.info("Configuration updated from environment", metadata: ["environment_value": "x-api-key=SECRET"])
        logger.warning("Failed to update configuration from environment", metadata: ["environment_value": "x-api-key=SECRET", "key": "OTEL_EXPORTER_OTLP_HEADERS"])
        logger.warning("Failed to export batch.", metadata: ["error": "connection refused"])
        #expect(lines.withLock { $0 } == [
            "pushline: warning: tracing: Failed to update configuration from environment",
            "pushline: warning: tracing: Failed to export batch. (error: connection refused)",
        ])
    }
}

@Suite("PipelineCore's spans recorded through swift-distributed-tracing")
struct OTelRunTracerTests {
    @Test("nested spans keep their parents, kinds, attributes and failure; no tracer records nothing")
    func nestedSpans() async throws {
        let tracer = InMemoryTracer()
        let value = await withTracer(tracer) {
            await RunTracing.$current.withValue(OTelRunTracer()) {
                await RunTracing.span("pushline run nightly") { run in
                    run.set("pushline.run.id", .string("20261127-1"))
                    return await RunTracing.span("NH POST send", kind: .client) { request in
                        request.set("http.response.status_code", .int(403))
                        request.set("nh.notification.ids", .strings(["a", "b"]))
                        request.set("pushline.dry_run", .bool(false))
                        request.fail("the hub answered 403")
                        return 7
                    }
                }
            }
        }
        #expect(value == 7)
        let spans = tracer.finishedSpans
        let run = try #require(spans.first { $0.operationName == "pushline run nightly" })
        let request = try #require(spans.first { $0.operationName == "NH POST send" })
        #expect(run.parentSpanID == nil)
        #expect(request.parentSpanID == run.spanID)
        #expect(request.traceID == run.traceID)
        #expect(request.kind == .client && run.kind == .internal)
        #expect(run.attributes["pushline.run.id"]?.toSpanAttribute() == .string("20261127-1"))
        #expect(request.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(403))
        #expect(request.attributes["nh.notification.ids"]?.toSpanAttribute() == .stringArray(["a", "b"]))
        #expect(request.status?.code == .error)
        #expect(request.status?.message == "the hub answered 403")
        #expect(run.status == nil)

        tracer.clearAll()
        let untraced = await withTracer(tracer) { await RunTracing.span("nothing") { _ in 1 } }
        #expect(untraced == 1)
        #expect(tracer.finishedSpans.isEmpty, "without RunTracing.current no span is made")
    }
}
