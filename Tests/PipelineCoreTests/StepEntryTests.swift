import Foundation
import RunStore
import Testing

@testable import Engine
@testable import PipelineCore

/// A step entry's `id`, `name` and `when` beside its kind: what the registry makes of keys beside the kind, and when the
/// engine runs a step after others failed.
@Suite struct StepEntryTests {
    let clock = WallClock.fixed(Date(timeIntervalSince1970: 1_700_000_000))

    private func entry(
        _ index: Int, _ name: String, fail: Bool = false, id: String? = nil, title: String? = nil,
        when condition: StepCondition = .success
    ) -> StepInvocation {
        var step = invocation(
            index, "probe", [("name", Build.scalar(name))] + (fail ? [("fail", Build.scalar("true"))] : []))
        step.id = id
        step.name = title
        step.condition = condition
        return step
    }

    private func run(_ steps: [StepInvocation], stop: Bool = false) async throws -> RunReport {
        let registry = try StepRegistry([ProbeStep.self])
        let collector = DiagnosticCollector()
        let built = try #require(
            registry.build(
                PipelineDocument(file: Build.file, directory: ".", steps: steps), diagnostics: collector,
                loadDataFile: noFiles))
        let control = BatchControl()
        if stop { control.stop.request() }
        return await PipelineEngine(logger: testLogger, clock: clock).run(
            built, mode: .live(DryRunTransport()), batch: control)
    }

    @Test("after a failure, `failure` and `always` steps run, `success` steps are skipped, and the run still fails")
    func conditionsAfterAFailure() async throws {
        let report = try await run([
            entry(1, "a", fail: true), entry(2, "b"), entry(3, "c", when: .failure), entry(4, "d", when: .always),
            entry(5, "e", fail: true, when: .always), entry(6, "f", when: .always),
        ])
        #expect(report.status == .failed)
        #expect(report.steps.map(\.status) == [.failed, .skipped, .succeeded, .succeeded, .failed, .succeeded])
        #expect(report.steps[1].summary == "skipped: an earlier step failed")
        #expect(report.steps.map(\.summary)[2...] == ["ran c", "ran d", "probe e failed", "ran f"])
    }

    @Test("without a failure, a `failure` step is skipped and says why; `always` runs")
    func conditionsWithoutAFailure() async throws {
        let report = try await run([entry(1, "a"), entry(2, "b", when: .failure), entry(3, "c", when: .always)])
        #expect(report.status == .succeeded)
        #expect(report.steps.map(\.status) == [.succeeded, .skipped, .succeeded])
        #expect(report.steps[1].summary == "skipped (when: failure): no earlier step failed")
    }

    @Test("a stop signal runs nothing more, not even an `always` step, which says it was stopped, not skipped")
    func stopRunsNothing() async throws {
        let report = try await run([entry(1, "a", when: .always)], stop: true)
        #expect(report.steps.map(\.status) == [.interrupted])
        // A step that fails as the run is stopped: what would have run after the failure was stopped.
        let registry = try StepRegistry([ProbeStep.self, FailAndStop.self])
        var stopping = invocation(1, "fail-and-stop", [])
        stopping.name = "the digest"
        let steps = [stopping, entry(2, "b"), entry(3, "c", when: .failure), entry(4, "d", when: .always)]
        let built = try #require(
            registry.build(
                PipelineDocument(file: Build.file, directory: ".", steps: steps), diagnostics: DiagnosticCollector(),
                loadDataFile: noFiles))
        let stopped = await PipelineEngine(logger: testLogger, clock: clock).run(built, mode: .live(DryRunTransport()))
        #expect(stopped.status == .failed)
        #expect(stopped.steps.map(\.status) == [.failed, .skipped, .interrupted, .interrupted])
        #expect(
            stopped.steps.map(\.summary)[1...] == [
                "skipped: an earlier step failed", "not started: the run was stopped",
                "not started: the run was stopped",
            ])
    }

    @Test("a step whose input the check rejects keeps its id and name in the report")
    func rejectedStepKeepsItsName() async throws {
        var rejected = invocation(1, "probe", [("name", Build.scalar("a")), ("bad", Build.scalar("2"))])
        rejected.id = "digest"
        rejected.name = "morning digest"
        let report = try await run([rejected, entry(2, "b", title: "next")])
        #expect(report.status == .rejected)
        #expect(report.steps.map(\.title) == ["morning digest", "next"] && report.steps[0].id == "digest")
    }

    @Test("a record carries the step's id and name; its title is the name, or the kind")
    func recordsCarryIdAndName() async throws {
        let report = try await run([
            entry(1, "a", id: "first", title: "greet the team"), entry(2, "b", fail: true), entry(3, "c", id: "third"),
        ])
        #expect(report.steps.map(\.id) == ["first", nil, "third"])
        #expect(report.steps.map(\.name) == ["greet the team", nil, nil])
        #expect(report.steps.map(\.title) == ["greet the team", "probe", "probe"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(report.steps[0]), as: UTF8.self)
        #expect(json.contains("\"id\":\"first\"") && json.contains("\"name\":\"greet the team\""))
    }

    @Test("keys beside the kind: an option written beside it, an unknown key, and a kind that is not the first key")
    func straysBesideTheKind() throws {
        let registry = try StepRegistry([ProbeStep.self])
        var beside = invocation(1, "probe", [("name", Build.scalar("a"))])
        beside.strays = [ConfigEntry(key: "fail", keyLocation: Build.at(11, 20), value: Build.scalar("true"))]
        var unknown = invocation(2, "probe", [("name", Build.scalar("b"))])
        unknown.strays = [ConfigEntry(key: "nmae", keyLocation: Build.at(12, 20), value: Build.scalar("x"))]
        // `- whne: always` written first, `probe:` second: the kind is found, the stray reported.
        var later = invocation(3, "whne", [])
        later.strays = [
            ConfigEntry(
                key: "probe", keyLocation: Build.at(13, 30), value: Build.mapping([("name", Build.scalar("c"))], 13, 37)
            )
        ]
        let collector = DiagnosticCollector()
        #expect(
            registry.build(
                PipelineDocument(file: Build.file, directory: ".", steps: [beside, unknown, later]),
                diagnostics: collector,
                loadDataFile: noFiles) == nil)
        #expect(
            collector.diagnostics.map(\.description) == [
                "test.yaml:11:20: error: 'fail' is an option of 'probe' but is written beside it",
                "test.yaml:12:20: error: unknown key 'nmae' in a step entry; did you mean 'name'?",
                "test.yaml:13:5: error: unknown key 'whne' in a step entry; did you mean 'when'?",
            ])
        #expect(collector.diagnostics.first?.hint == "indent it under `probe:`, with the step's other options")
    }
}

/// A step that stops the run and fails, as one that a signal cut short and whose hub then refused it.
private struct FailAndStop: Step {
    static let id = "fail-and-stop"
    static let summary = "fails as the run stops"
    static let options: [OptionSpec] = []
    static let examples: [String] = []
    static func build(_ options: OptionReader, in context: BuildContext) -> FailAndStop? { FailAndStop() }
    func run(in context: StepContext) async throws -> StepResult {
        context.batch.stop.request()
        throw StepFailure("refused")
    }
}
