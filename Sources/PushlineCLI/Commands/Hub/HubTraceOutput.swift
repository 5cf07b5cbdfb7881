import PipelineCore
import RunFlow

/// How `--trace` prints a request and its answer: the request's lines (Authorization redacted), the outcome, a blank
/// line, on standard error, so standard output stays the command's own.
enum HubTraceOutput {
    static func sink(_ console: Console) -> @Sendable (HubTrace) -> Void {
        { trace in console.err((trace.requestLines + [trace.outcomeLine, ""]).joined(separator: "\n")) }
    }
}
