import PipelineCore
import Tracing

/// PipelineCore's `RunTracer` over swift-distributed-tracing: spans go to the tracer that is current (the one
/// `TelemetryExport` installed, or a test's `withTracer`), parented by the task-local context.
package struct OTelRunTracer: RunTracer {
    /// Creates the tracer.
    package init() {}

    package func span<T>(_ name: String, kind: TraceSpanKind, _ body: (any TraceSpan) async -> T) async -> T {
        await withSpan(name, ofKind: kind.spanKind) { span in
            await body(RecordedSpan(span: span))
        }
    }
}

/// A span being recorded, as PipelineCore sees it.
struct RecordedSpan: TraceSpan {
    let span: any Span

    func set(_ key: String, _ value: TraceValue) {
        switch value {
        case .string(let text): span.attributes[key] = text
        case .int(let number): span.attributes[key] = number
        case .bool(let flag): span.attributes[key] = flag
        case .strings(let list): span.attributes[key] = list
        }
    }

    func fail(_ message: String) {
        span.setStatus(SpanStatus(code: .error, message: message))
    }
}

extension TraceSpanKind {
    var spanKind: SpanKind {
        switch self {
        case .internal: .internal
        case .client: .client
        case .server: .server
        }
    }
}
