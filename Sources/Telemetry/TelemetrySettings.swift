import Foundation

/// The OpenTelemetry environment Pushline hands to swift-otel: tracing only, over OTLP/HTTP, and never a value that
/// would stop the process (swift-otel ends it on a propagator, sampler or protocol this build lacks).
package struct TelemetrySettings: Equatable, Sendable {
    /// The `OTEL_*` variables passed on.
    package var environment: [String: String]
    /// What was left out or changed, each a sentence for standard error.
    package var warnings: [String]

    /// Propagators swift-otel has (the others end the process).
    static let supportedPropagators: Set<String> = ["tracecontext", "none"]
    /// Samplers that end the process.
    static let unsupportedSamplers: Set<String> = ["jaeger_remote", "parentbased_jaeger_remote", "xray"]

    /// Settings from the command's environment (which `--env-file` fills too), or nil when spans are not wanted:
    /// no `OTEL_EXPORTER_OTLP_ENDPOINT` (nor its traces form), or `OTEL_SDK_DISABLED=true`, or
    /// `OTEL_TRACES_EXPORTER=none`.
    package init?(_ environment: [String: String]) {
        let endpoint = environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? environment["OTEL_EXPORTER_OTLP_ENDPOINT"]
        guard let endpoint, !endpoint.trimmingCharacters(in: .whitespaces).isEmpty,
            environment["OTEL_SDK_DISABLED"]?.lowercased() != "true",
            environment["OTEL_TRACES_EXPORTER"]?.lowercased() != "none"
        else { return nil }
        var passed: [String: String] = [:]
        var warnings: [String] = []
        for (name, value) in environment where name.hasPrefix("OTEL_") {
            // Logs and metrics stay Pushline's own (its log lines, --metrics and /metrics).
            if name == "OTEL_SDK_DISABLED" || name.hasPrefix("OTEL_LOGS_") || name.hasPrefix("OTEL_METRICS_") {
                continue
            }
            passed[name] = value
        }
        if let propagators = passed["OTEL_PROPAGATORS"] {
            let names = propagators.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let kept = names.filter(Self.supportedPropagators.contains)
            if kept.count != names.count {
                warnings.append(
                    "tracing: OTEL_PROPAGATORS \(names.filter { !Self.supportedPropagators.contains($0) }.joined(separator: ",")) "
                        + "not supported; using \(kept.isEmpty ? "tracecontext" : kept.joined(separator: ","))")
                passed["OTEL_PROPAGATORS"] = kept.isEmpty ? "tracecontext" : kept.joined(separator: ",")
            }
        }
        if let sampler = passed["OTEL_TRACES_SAMPLER"], Self.unsupportedSamplers.contains(sampler.lowercased()) {
            warnings.append("tracing: OTEL_TRACES_SAMPLER \(sampler) not supported; every run is sampled")
            passed["OTEL_TRACES_SAMPLER"] = nil
            passed["OTEL_TRACES_SAMPLER_ARG"] = nil
        }
        for name in ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] {
            if let value = passed[name], value.lowercased() == "grpc" {
                warnings.append(
                    "tracing: \(name)=grpc not supported (this build exports OTLP over HTTP); using http/protobuf")
                passed[name] = "http/protobuf"
            }
        }
        // Values swift-otel takes but cannot work with: a batch of none flushes for ever at exit, no delay spins.
        let limits: [(String, Int)] = [
            ("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 1), ("OTEL_BSP_MAX_QUEUE_SIZE", 1),
            ("OTEL_BSP_SCHEDULE_DELAY", 100), ("OTEL_BSP_EXPORT_TIMEOUT", 100), ("OTEL_EXPORTER_OTLP_TIMEOUT", 100),
            ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", 100),
        ]
        for (name, least) in limits {
            guard let value = passed[name] else { continue }
            if let number = Int(value.trimmingCharacters(in: .whitespaces)), number >= least { continue }
            warnings.append("tracing: \(name)=\(value) is not a whole number of at least \(least); the default applies")
            passed[name] = nil
        }
        self.environment = passed
        self.warnings = warnings
    }
}
