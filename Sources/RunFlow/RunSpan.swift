import PipelineCore

/// The span of a run (when the run is traced): its steps' spans are its children, their hub requests theirs.
enum RunSpan {
    static func record(_ pipeline: Pipeline, runId: String?, resumed: Bool, _ body: () async -> RunReport) async -> RunReport {
        await RunTracing.span("pushline run \(pipeline.document.name)") { span in
            span.set("pushline.pipeline", .string(pipeline.document.name))
            if let runId { span.set("pushline.run.id", .string(runId)) }
            span.set("pushline.run.resumed", .bool(resumed))
            span.set("pushline.dry_run", .bool(runId == nil))
            let report = await body()
            span.set("pushline.run.status", .string(report.status.rawValue))
            if report.status == .failed || report.status == .rejected { span.fail("the run \(report.status.rawValue)") }
            return report
        }
    }
}
