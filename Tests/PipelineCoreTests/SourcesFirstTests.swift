import Foundation
import RunStore
import Synchronization
import Testing

@testable import Engine
@testable import PipelineCore

/// The order steps ran in, by the token each test gives its steps (tests run in parallel).
let stepOrder = Mutex<[String: [String]]>([:])

/// A source of rows: reads (or fails to), noting that it ran; its rows are known only by their digest.
struct SourceProbe: Step {
    static let id = "source"
    static let summary = "reads rows"
    static let options = [
        OptionSpec("token", .string, required: true, "the test's token"),
        OptionSpec("digest", .string, required: true, "the rows' digest"),
        OptionSpec("fail", .boolean, default: "false", "fail when read"),
    ]
    static let outputs = [OutputSpec("rows", .rows, "the rows"), OutputSpec("count", .integer, "how many")]
    static let examples: [String] = []
    let token: String
    let digest: String
    let fail: Bool

    static func build(_ options: OptionReader, in context: BuildContext) -> SourceProbe? {
        guard let token = options.string("token")?.value, let digest = options.string("digest")?.value else {
            return nil
        }
        return SourceProbe(token: token, digest: digest, fail: options.bool("fail") ?? false)
    }

    var readsSource: Bool { true }

    func run(in context: StepContext) async throws -> StepResult {
        stepOrder.withLock { $0[token, default: []].append("source") }
        if fail { throw StepFailure("the database is down") }
        var result = StepResult(summary: "read 2 rows")
        result.outputs = [
            "rows": .rows(
                SpooledRows(spool: nil, file: "/dev/null", columns: ["userId"], count: 2, digest: digest, readAt: 0)),
            "count": .integer(2),
        ]
        return result
    }
}

/// A step that notes its name (with the values of any references in it) when it runs.
struct NoteProbe: Step {
    static let id = "note"
    static let summary = "notes that it ran"
    static let options = [
        OptionSpec("token", .string, required: true, "the test's token"),
        OptionSpec("text", .string, required: true, "what to note"),
    ]
    static let examples: [String] = []
    let token: String
    let text: String

    static func build(_ options: OptionReader, in context: BuildContext) -> NoteProbe? {
        guard let token = options.string("token")?.value, let text = options.string("text")?.value else { return nil }
        return NoteProbe(token: token, text: text)
    }

    func run(in context: StepContext) async throws -> StepResult {
        stepOrder.withLock { $0[token, default: []].append(text) }
        return StepResult(summary: "noted \(text)")
    }
}

@Suite("A new run reads its sources first; every step hands on its outputs, whatever became of it")
struct SourcesFirstTests {
    let token = UUID().uuidString
    let engine = PipelineEngine(logger: testLogger, clock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)))

    private func step(
        _ index: Int, _ kind: String, id: String? = nil, when condition: StepCondition = .success,
        _ options: [(String, ConfigNode)]
    ) -> StepInvocation {
        StepInvocation(
            index: index, kind: kind, location: Build.at(10 + index, 5),
            options: Build.mapping([("token", Build.scalar(token))] + options, 10 + index, 12), id: id,
            condition: condition)
    }

    /// Text with `${steps.…}` references, as the loader leaves them for the run.
    private func referring(_ parts: [DeferredPart]) -> ConfigNode {
        ConfigNode(
            .scalar(
                ConfigScalar(text: "x", sourceText: "written", isPlain: false, isUnresolved: true, deferred: parts)),
            at: Build.at(3, 9))
    }

    private func pipeline(_ steps: [StepInvocation]) throws -> Pipeline {
        let registry = try StepRegistry([SourceProbe.self, NoteProbe.self])
        let collector = DiagnosticCollector()
        let built = registry.build(
            PipelineDocument(file: Build.file, directory: ".", steps: steps), diagnostics: collector,
            loadDataFile: noFiles)
        return try #require(built, "\(collector.diagnostics)")
    }

    private var order: [String] { stepOrder.withLock { $0[token] ?? [] } }

    @Test("a source runs before every other step and keeps its place in the report; the flow is told its rows' digest")
    func sourcesFirst() async throws {
        let built = try pipeline([
            step(1, "note", [("text", Build.scalar("sign"))]),
            step(2, "source", id: "users", [("digest", Build.scalar("d1"))]),
        ])
        let told = Mutex<[Int: String]?>(nil)
        var control = BatchControl()
        control.sourcesRead = { digests in
            told.withLock { $0 = digests }
            return nil
        }
        let report = await engine.run(built, mode: .live(DryRunTransport()), batch: control)
        #expect(order == ["source", "sign"])
        #expect(report.status == .succeeded && report.unchanged == nil)
        #expect(report.steps.map(\.summary) == ["noted sign", "read 2 rows"])
        #expect(told.withLock { $0 } == [2: "d1"])
    }

    @Test("when the flow says the rows are the ones a completed run sent, nothing else runs and the report says why")
    func unchanged() async throws {
        let built = try pipeline([
            step(1, "note", [("text", Build.scalar("sign"))]),
            step(2, "source", id: "users", [("digest", Build.scalar("d1"))]),
            step(3, "note", when: .always, [("text", Build.scalar("summary"))]),
        ])
        var control = BatchControl()
        control.sourcesRead = { _ in "the same rows as run r1" }
        let report = await engine.run(built, mode: .live(DryRunTransport()), batch: control)
        #expect(order == ["source"])
        #expect(report.unchanged == "the same rows as run r1")
        #expect(report.steps.map(\.status) == [.skipped, .succeeded, .skipped])
        #expect(report.steps[0].summary == "not run: the same rows as run r1")
    }

    @Test("a resumed run reads its sources at their turn (from its spool), and asks nothing")
    func resume() async throws {
        let built = try pipeline([
            step(1, "note", [("text", Build.scalar("sign"))]),
            step(2, "source", id: "users", [("digest", Build.scalar("d1"))]),
        ])
        var control = BatchControl(isResume: true)
        control.sourcesRead = { _ in
            Issue.record("a resume was asked whether its sources changed")
            return nil
        }
        _ = await engine.run(built, mode: .live(DryRunTransport()), batch: control)
        #expect(order == ["sign", "source"])
    }

    @Test(
        "a summary that runs always reads the status, error and empty counts of a source that failed and of a step skipped after it"
    )
    func summaryAfterFailure() async throws {
        let built = try pipeline([
            step(1, "source", id: "users", [("digest", Build.scalar("d1")), ("fail", Build.scalar("true"))]),
            step(2, "note", id: "digest", [("text", Build.scalar("digest"))]),
            step(
                3, "note", when: .always,
                [
                    (
                        "text",
                        referring([
                            .output(OutputReference(step: "users", output: "status")), .text("/"),
                            .output(OutputReference(step: "users", output: "count")),
                            .text("/"), .output(OutputReference(step: "users", output: "error")), .text("/"),
                            .output(OutputReference(step: "digest", output: "status")), .text("/"),
                            .output(OutputReference(step: "digest", output: "error")), .text("."),
                        ])
                    )
                ]),
        ])
        var control = BatchControl()
        control.sourcesRead = { digests in
            #expect(digests.isEmpty, "a source that failed gave no rows")
            return nil
        }
        let report = await engine.run(built, mode: .live(DryRunTransport()), batch: control)
        #expect(report.status == .failed)
        #expect(report.steps.map(\.status) == [.failed, .skipped, .succeeded])
        #expect(order == ["source", "failed/0/the database is down/skipped/."])
    }
}
