import Engine
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
        let step = StepRecord(
            index: 1, step: "send", location: "p.yaml:9:5", status: .failed, summary: "…",
            data: .object([ReportField("retries", .int(7))]), items: items)
        let report = RunReport(
            pipeline: "/srv/we\"ird.yaml", dryRun: false, startedAt: Date(), finishedAt: Date(), status: .partial,
            steps: [step])
        let text = MetricsFile.render(report, seconds: 12.5, exitCode: 3)
        #expect(text.contains(#"pushline_items{pipeline="we\"ird",step="1",kind="send",state="accepted"} 4995"#))
        #expect(text.contains(#"pushline_items{pipeline="we\"ird",step="1",kind="send",state="unknown"} 2"#))
        #expect(text.contains(#"pushline_run_duration_seconds{pipeline="we\"ird"} 12.500"#))
        #expect(text.contains(#"pushline_run_retries{pipeline="we\"ird"} 7"#))
        #expect(text.contains(#"pushline_run_exit_code{pipeline="we\"ird"} 3"#))
        #expect(text.hasSuffix("\n"))
    }

    @Test("series are labelled as the journal names things: the pipeline's name:, each step's id: (else its position)")
    func labelsByNameAndId() {
        var step = StepRecord(
            index: 2, step: "send", location: "p.yaml:9:5", status: .succeeded, summary: "…",
            items: ItemCounts(accepted: 3))
        step.id = "digest"
        var report = RunReport(
            pipeline: "/srv/pipelines/nightly-v2.yaml", dryRun: false, startedAt: Date(), finishedAt: Date(),
            status: .succeeded,
            steps: [step])
        report.name = "nightly"
        let text = MetricsFile.render(report, seconds: 1, exitCode: 0)
        #expect(text.contains(#"pushline_items{pipeline="nightly",step="digest",kind="send",state="accepted"} 3"#))
        #expect(text.contains(#"pushline_run_exit_code{pipeline="nightly"} 0"#))
    }
}
