import Foundation
import HubWire
import RunStore
import Synchronization
import Testing

@testable import Engine
@testable import PipelineCore

/// A step that acts on a hub (so a resume reads it back), counting its runs and handing on an id.
private struct HubActingStep: Step {
    static let id = "acting"
    static let summary = "acts on a hub"
    static let options = [OptionSpec("name", .string, required: true, "a name")]
    static let examples: [String] = []
    static let outputs = [OutputSpec("ids", .list, "ids")]
    static let runs = Mutex(0)
    let name: String
    static func build(_ options: OptionReader, in context: BuildContext) -> HubActingStep? {
        options.string("name").map { HubActingStep(name: $0.value) }
    }
    var access: [HubAccess] {
        [
            HubAccess(
                hub: HubDeclaration(
                    name: "main", location: Build.at(1, 1), connection: nil, hubName: "h", endpoint: nil), right: .send,
                purpose: "send")
        ]
    }
    func run(in context: StepContext) async throws -> StepResult {
        let count = Self.runs.withLock {
            $0 += 1
            return $0
        }
        var result = StepResult(summary: "acted as \(name) (run \(count))")
        result.outputs = ["ids": .list(["id-\(count)"], total: 1)]
        return result
    }
}

/// A ledger that keeps only completed steps.
private final class StepLedger: ItemLedger {
    let completed = Mutex<[Int: CompletedStep]>([:])
    let isWritable = true
    func entry(_ key: LedgerKey) throws(LedgerError) -> LedgerEntry? { nil }
    func markSending(_ items: [LedgerItem]) throws(LedgerError) {}
    func record(_ outcomes: [LedgerOutcome], skips: [SkipRange]) throws(LedgerError) {}
    func markSending(_ item: LedgerItem, creating id: String) throws(LedgerError) {}
    func assignId(_ id: String, to key: LedgerKey) throws(LedgerError) {}
    func priorSend(key: String, since: Double, excluding: LedgerKey) throws(LedgerError) -> PriorSend? { nil }
    func completedStep(_ step: Int) throws(LedgerError) -> CompletedStep? { completed.withLock { $0[step] } }
    func recordCompleted(_ step: CompletedStep) throws(LedgerError) { completed.withLock { $0[step.step] = step } }
}

@Suite(.serialized) struct CompletedStepTests {
    @Test func aResumedRunReadsACompletedStepBackAndHandsOnItsOutputs() async throws {
        let registry = try StepRegistry([HubActingStep.self])
        var first = invocation(1, "acting", [("name", Build.scalar("a"))])
        first.id = "first"
        let second = invocation(
            2, "acting",
            [
                (
                    "name",
                    ConfigNode(
                        .scalar(
                            ConfigScalar(
                                text: "x", sourceText: "${steps.first.ids[0]}", isPlain: false,
                                deferred: [.output(OutputReference(step: "first", output: "ids", index: 0))])),
                        at: Build.at(12, 20))
                )
            ])
        let document = PipelineDocument(file: Build.file, directory: ".", steps: [first, second])
        let pipeline = try #require(registry.build(document, diagnostics: DiagnosticCollector(), loadDataFile: noFiles))
        let ledger = StepLedger()
        let engine = PipelineEngine(logger: testLogger, clock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)))
        HubActingStep.runs.withLock { $0 = 0 }

        let live = await engine.run(pipeline, mode: .live(DryRunTransport()), batch: BatchControl(ledger: ledger))
        #expect(live.steps.map(\.summary) == ["acted as a (run 1)", "acted as id-1 (run 2)"])
        #expect(ledger.completed.withLock { $0[1]?.outputs } == ["ids": .list(["id-1"], total: 1)])

        // Resumed: both completed, so neither runs again; the second still sees the first's outputs.
        ledger.completed.withLock { $0[2] = nil }
        let resumed = await engine.run(
            pipeline, mode: .live(DryRunTransport()), batch: BatchControl(ledger: ledger, isResume: true))
        #expect(
            resumed.steps.map(\.summary) == [
                "done by an earlier attempt of this run: acted as a (run 1)", "acted as id-1 (run 3)",
            ])
        #expect(resumed.steps.first?.outputs == .object([ReportField("ids", .array([.string("id-1")]))]))

        // A dry run of a resume reads what the run completed, as the resume would, and records nothing.
        let before = ledger.completed.withLock { $0 }
        let dry = await engine.run(
            pipeline, mode: .dryRun, batch: BatchControl(ledger: ReadOnlyLedger(ledger), isResume: true))
        #expect(dry.steps.first?.summary == "done by an earlier attempt of this run: acted as a (run 1)")
        #expect(ledger.completed.withLock { $0 } == before)
        // A dry run of a new run reads nothing back.
        let fresh = await engine.run(pipeline, mode: .dryRun, batch: BatchControl(ledger: ReadOnlyLedger(ledger)))
        #expect(fresh.steps.first?.summary == "acted as a (run 4)")
    }

    @Test func aStepReadBackWhoseNotificationsReachedNoDeviceStillEndsTheRunUndelivered() async throws {
        let registry = try StepRegistry([HubActingStep.self])
        let document = PipelineDocument(
            file: Build.file, directory: ".", steps: [invocation(1, "acting", [("name", Build.scalar("a"))])])
        let pipeline = try #require(registry.build(document, diagnostics: DiagnosticCollector(), loadDataFile: noFiles))
        let ledger = StepLedger()
        ledger.completed.withLock {
            $0[1] = CompletedStep(
                step: 1, stepId: "acting", summary: "sent",
                outputs: [
                    "ids": .list([], total: 0), "_reached-no-device": .integer(1),  // as the journal stores it
                ])
        }
        let engine = PipelineEngine(logger: testLogger, clock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)))
        let resumed = await engine.run(
            pipeline, mode: .live(DryRunTransport()), batch: BatchControl(ledger: ledger, isResume: true))
        #expect(resumed.status == .undelivered)
        // The mark is the engine's: not among the outputs the report shows.
        #expect(resumed.steps.first?.outputs == .object([ReportField("ids", .array([]))]))
    }

    @Test func outputsRoundTripThroughTheirStoredJSON() throws {
        let outputs: StepOutputs = [
            "n": .integer(3), "t": .string("5"), "l": .list(["a", "b"], total: 9), "yes": .boolean(true),
            "no": .boolean(false),
            "one": .integer(1),
        ]
        let step = CompletedStep(step: 1, stepId: "send", summary: "s", outputs: outputs)
        #expect(CompletedStep.outputs(fromJSON: step.outputsJSON) == outputs)
        // Reaching no device is the record's, stored beside the outputs with the mark every journal has used.
        let undelivered = CompletedStep(step: 1, stepId: "send", summary: "s", outputs: outputs, reachedNoDevice: true)
        #expect(undelivered.outputsJSON.contains(#""_reached-no-device":1"#))
        let read = CompletedStep(
            step: 1, stepId: "send", summary: "s",
            outputs: try #require(CompletedStep.outputs(fromJSON: undelivered.outputsJSON)))
        #expect(read.reachedNoDevice && read.outputs == outputs)
        #expect(CompletedStep.outputs(fromJSON: "not json") == nil)
    }
}
