/// The tracer of the work in progress: a task-local, so it reaches every step and request of a run (task groups
/// inherit it) and two commands in one process (tests) never share one. Nil, the default, records nothing.
package enum RunTracing {
    /// The installed tracer, if any.
    @TaskLocal package static var current: (any RunTracer)?

    /// Runs `body` in a span of the current tracer, or straight through (with a span that records nothing) when
    /// there is none.
    package static func span<T>(_ name: String, kind: TraceSpanKind = .internal, _ body: (any TraceSpan) async -> T) async -> T {
        guard let tracer = current else { return await body(UnrecordedSpan()) }
        return await tracer.span(name, kind: kind, body)
    }
}

/// The span of work nobody traces.
private struct UnrecordedSpan: TraceSpan {
    func set(_ key: String, _ value: TraceValue) {}
    func fail(_ message: String) {}
}
