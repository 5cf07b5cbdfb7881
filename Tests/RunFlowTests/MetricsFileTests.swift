import Foundation
import PipelineCore
import RunFlow
import Testing

@Suite("MetricsFile: the Prometheus textfile of the last run")
struct MetricsFileTests {
    @Test("items by step and state, duration, retries and exit code, with the pipeline label escaped")
    func rendersEveryGauge() {
        var items = ItemCounts()
        items.accepted = 4995
        items.failed = 3
        items.unknown = 2
        let step = StepRecord(index: 1, step: "send", location: "p.yaml:9:5", status: .failed, summary: "…",
                              data: .object([ReportField("retries", .int(7))]), items: items)
        let report = RunReport(pipeline: "/srv/we\"ird.yaml", dryRun: false, startedAt: Date(), finishedAt: Date(), status: .partial,
                               steps: [step])
        let text = MetricsFile.render(report, seconds: 12.5, exitCode: 3)
        #expect(text.contains(#"pushline_items{pipeline="we\"ird",step="1:send",state="accepted"} 4995"#))
        #expect(text.contains(#"pushline_items{pipeline="we\"ird",step="1:send",state="unknown"} 2"#))
        #expect(text.contains(#"pushline_run_duration_seconds{pipeline="we\"ird"} 12.500"#))
        #expect(text.contains(#"pushline_run_retries{pipeline="we\"ird"} 7"#))
        #expect(text.contains(#"pushline_run_exit_code{pipeline="we\"ird"} 3"#))
        #expect(text.hasSuffix("\n"))
    }
}
