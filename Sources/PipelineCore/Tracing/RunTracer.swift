/// Spans for runs, steps and hub requests, recorded by whatever the edge installs (`pushline` installs
/// OpenTelemetry's when `OTEL_EXPORTER_OTLP_ENDPOINT` is set); the core calls through this and imports no tracing
/// library. A span's parent is the span that encloses the call, within one task and the tasks it starts.
package protocol RunTracer: Sendable {
    /// Runs `body` inside a span named `name`; the span ends when `body` returns.
    func span<T>(_ name: String, kind: TraceSpanKind, _ body: (any TraceSpan) async -> T) async -> T
}

/// What a span stands for, as OpenTelemetry's span kinds say it.
package enum TraceSpanKind: Sendable {
    /// Work inside the process: a run, a step.
    case `internal`
    /// A request this process sends: a hub request.
    case client
    /// A request this process answers: `pushline serve`'s.
    case server
}

/// A span being recorded: attributes and, when the work failed, an error status.
package protocol TraceSpan: Sendable {
    /// Sets an attribute (an OpenTelemetry semantic convention name where one exists).
    func set(_ key: String, _ value: TraceValue)
    /// Marks the span failed, with a message that holds no secret.
    func fail(_ message: String)
}

/// An attribute value.
package enum TraceValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case strings([String])
}
