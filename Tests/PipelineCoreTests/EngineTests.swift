import Foundation
import InMemoryTracing
import PushlineLogging
import Testing
import Tracing

@testable import Engine
@testable import PipelineCore

/// A step that records its runs and succeeds or fails as told.
struct ProbeStep: Step {
    static let id = "probe"
    static let summary = "records runs"
    static let options = [
        OptionSpec("name", .string, required: true, "a name"),
        OptionSpec("fail", .boolean, default: "false", "fail when run"),
        OptionSpec("bad", .integer, "malformed records its input check finds (no check when absent)"),
        BatchOptions.badRows.spec,
        OptionSpec("concurrency", .integer, default: "1", "requests in flight"),
    ]
    static let examples = ["- probe: { name: a }"]

    let name: String
    let fail: Bool
    var bad: Int?
    var policy = BadRowPolicy.stop
    var concurrency = 1

    static func build(_ options: OptionReader, in context: BuildContext) -> ProbeStep? {
        let name = options.string("name")?.value
        let fail = options.bool("fail") ?? false
        guard let name else { return nil }
        var step = ProbeStep(name: name, fail: fail)
        step.bad = options.integer("bad", in: 0...100)
        step.policy = options.value(BatchOptions.badRows) ?? .stop
        step.concurrency = options.integer("concurrency", in: 1...256) ?? 1
        return step
    }

    func checkInput(in context: StepContext) async throws -> InputCheck? {
        guard let bad else { return nil }
        var check = InputCheck(input: "\(name).csv", policy: policy)
        for row in 0..<10 { if row < bad { check.malformed("\(name).csv:\(row + 2): bad") } else { check.good() } }
        return check
    }

    func run(in context: StepContext) async throws -> StepResult {
        context.state.setRenderedPayload(context.isDryRun ? "dry" : "live", forTemplate: name)
        if fail { throw StepFailure("probe \(name) failed", hint: "do not fail", lines: ["detail"]) }
        return StepResult(summary: "ran \(name)", data: .object([ReportField("name", .string(name))]))
    }
}

private struct OtherProbe: Step {
    static let id = "probe"
    static let summary = ""
    static let options: [OptionSpec] = []
    static let examples: [String] = []
    static func build(_ options: OptionReader, in context: BuildContext) -> OtherProbe? { OtherProbe() }
    func run(in context: StepContext) async throws -> StepResult { StepResult(summary: "") }
}

func invocation(_ index: Int, _ kind: String, _ options: [(String, ConfigNode)]) -> StepInvocation {
    StepInvocation(
        index: index, kind: kind, location: Build.at(10 + index, 5), options: Build.mapping(options, 10 + index, 12))
}

let noFiles: DataFileLoader = { _, _, _, _ in nil }

@Suite struct RegistryTests {
    @Test func rejectsDuplicateIDs() {
        #expect(throws: StepRegistryError(duplicateID: "probe")) {
            try StepRegistry([ProbeStep.self, OtherProbe.self])
        }
    }

    @Test func unknownStepKindSuggestsAndCollectsEveryProblem() throws {
        let registry = try StepRegistry([ProbeStep.self])
        let document = PipelineDocument(
            file: Build.file, directory: ".",
            steps: [
                invocation(1, "prob", []),
                invocation(2, "probe", [("nmae", Build.scalar("x", 12, 20))]),
            ])
        let collector = DiagnosticCollector()
        #expect(registry.build(document, diagnostics: collector, loadDataFile: noFiles) == nil)
        #expect(
            collector.diagnostics.map(\.description) == [
                "test.yaml:11:5: error: unknown step 'prob'; did you mean 'probe'?",
                "test.yaml:12:20: error: [probe] unknown key 'nmae'; did you mean 'name'?",
            ])
    }
}

@Suite struct EngineTests {
    let clock = WallClock.fixed(Date(timeIntervalSince1970: 1_700_000_000))

    func pipeline(_ steps: [StepInvocation]) throws -> Pipeline {
        let registry = try StepRegistry([ProbeStep.self])
        let collector = DiagnosticCollector()
        let document = PipelineDocument(file: Build.file, directory: ".", steps: steps)
        return try #require(registry.build(document, diagnostics: collector, loadDataFile: noFiles))
    }

    @Test func malformedInputStopsTheRunBeforeAnyStepRuns() async throws {
        let built = try pipeline([
            invocation(1, "probe", [("name", Build.scalar("a"))]),
            invocation(2, "probe", [("name", Build.scalar("b")), ("bad", Build.scalar("2"))]),
        ])
        let report = await PipelineEngine(logger: PushlineLogging.logger(label: "t", level: "critical")!, clock: clock)
            .run(built, mode: .dryRun)
        #expect(report.status == .rejected)
        #expect(report.steps.map(\.status) == [.skipped, .failed])
        #expect(report.steps[0].summary == "not started: the input check failed, so nothing was sent")
        #expect(report.steps[1].summary == "2 of 10 records in 'b.csv' are malformed; nothing was sent")
        #expect(report.steps[1].lines == ["b.csv:2: bad", "b.csv:3: bad"])
        #expect(report.steps[1].hint?.contains("bad-rows: skip") == true)
        #expect(report.steps[1].input?.records == 10)
    }

    @Test func withSkipTheRunGoesOnAndTheStepCarriesItsCheck() async throws {
        let built = try pipeline([
            invocation(
                1, "probe",
                [
                    ("name", Build.scalar("a")), ("bad", Build.scalar("1")),
                    ("bad-rows", Build.scalar("skip")),
                ])
        ])
        let report = await PipelineEngine(logger: PushlineLogging.logger(label: "t", level: "critical")!, clock: clock)
            .run(built, mode: .dryRun)
        #expect(report.status == .succeeded)
        #expect(
            report.steps[0].input == InputSummary(InputCheck(input: "a.csv", policy: .skip)).with(records: 10, bad: 1))
    }

    @Test func aPipelinesConcurrencyIsItsBusiestSteps() throws {
        let built = try pipeline([
            invocation(1, "probe", [("name", Build.scalar("a")), ("concurrency", Build.scalar("40"))]),
            invocation(2, "probe", [("name", Build.scalar("b")), ("concurrency", Build.scalar("3"))]),
        ])
        #expect(built.concurrency == 40)
        #expect(try pipeline([invocation(1, "probe", [("name", Build.scalar("a"))])]).concurrency == 1)
        #expect(try pipeline([]).concurrency == 1)
    }

    @Test func runsStepsInOrder() async throws {
        let built = try pipeline([
            invocation(1, "probe", [("name", Build.scalar("a"))]),
            invocation(2, "probe", [("name", Build.scalar("b"))]),
        ])
        let report = await PipelineEngine(logger: testLogger, clock: clock).run(built, mode: .dryRun)
        #expect(report.status == .succeeded)
        #expect(report.dryRun)
        #expect(report.steps.map(\.summary) == ["ran a", "ran b"])
        #expect(report.steps.map(\.status) == [.succeeded, .succeeded])
        #expect(report.startedAt == "2023-11-14T22:13:20Z")
    }

    @Test func stampsFailureWithStepAndLocationThenSkipsTheRest() async throws {
        let built = try pipeline([
            invocation(1, "probe", [("name", Build.scalar("a")), ("fail", Build.scalar("true"))]),
            invocation(2, "probe", [("name", Build.scalar("b"))]),
        ])
        let report = await PipelineEngine(logger: testLogger, clock: clock).run(built, mode: .live(DryRunTransport()))
        #expect(report.status == .failed)
        var failed = StepRecord(
            index: 1, step: "probe", location: "test.yaml:11:5", status: .failed, summary: "probe a failed",
            lines: ["detail"], durationMs: report.steps[0].durationMs, hint: "do not fail")
        failed.code = "step.failed"  // a failure without a code of its own
        #expect(
            report.steps == [
                failed,
                StepRecord(
                    index: 2, step: "probe", location: "test.yaml:12:5", status: .skipped,
                    summary: "skipped: an earlier step failed"),
            ])
    }

    @Test("each step is a span of the tracer the edge installs, a child of the span it runs in, with what it did")
    func stepsAreSpansOfTheInstalledTracer() async throws {
        let built = try pipeline([invocation(1, "probe", [("name", Build.scalar("a"))])])
        let tracer = InMemoryTracer()
        let report = await withTracer(tracer) {
            await withSpan("pushline run nightly") { _ in
                await PipelineEngine(logger: testLogger, clock: clock).run(built, mode: .dryRun)
            }
        }
        #expect(report.status == .succeeded)
        let run = try #require(tracer.finishedSpans.first { $0.operationName == "pushline run nightly" })
        let step = try #require(tracer.finishedSpans.first { $0.operationName.hasPrefix("step 1 ") })
        #expect(step.parentSpanID == run.spanID && step.traceID == run.traceID)
        #expect(step.kind == .internal)
        #expect(step.attributes["pushline.step.index"]?.toSpanAttribute() == .int64(1))
        #expect(step.attributes["pushline.step.kind"]?.toSpanAttribute() == .string("probe"))
        #expect(step.attributes["pushline.step.status"]?.toSpanAttribute() == .string("succeeded"))
        #expect(step.status == nil)
    }

    @Test func reportEncodesAsJSON() async throws {
        let built = try pipeline([invocation(1, "probe", [("name", Build.scalar("a"))])])
        let report = await PipelineEngine(logger: testLogger, clock: clock).run(built, mode: .dryRun)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(json.contains("\"data\":{\"name\":\"a\"}"))
        #expect(json.contains("\"status\":\"succeeded\""))
        #expect(json.contains("\"location\":\"test.yaml:11:5\""))
    }
}

let testLogger = PushlineLogging.logger(label: "test", level: "critical")!

extension InputSummary {
    fileprivate func with(records: Int, bad: Int) -> InputSummary {
        var copy = self
        copy.records = records
        copy.bad = bad
        return copy
    }
}
