import Engine
import PipelineCore
import Tracing

/// The span of a run (when the run is traced): its steps' spans are its children, their hub requests theirs.
enum RunSpan {
    static func record(_ pipeline: Pipeline, runId: String?, resumed: Bool, _ body: () async -> RunReport) async
        -> RunReport
    {
        await withSpan("pushline run \(pipeline.document.name)") { span in
            span.attributes["pushline.pipeline"] = pipeline.document.name
            if let runId { span.attributes["pushline.run.id"] = runId }
            span.attributes["pushline.run.resumed"] = resumed
            span.attributes["pushline.dry_run"] = runId == nil
            let report = await body()
            span.attributes["pushline.run.status"] = report.status.rawValue
            if report.status == .failed || report.status == .rejected {
                span.setStatus(SpanStatus(code: .error, message: "the run \(report.status.rawValue)"))
            }
            return report
        }
    }
}
