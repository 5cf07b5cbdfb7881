import Testing
@testable import PipelineCore

/// A step that declares outputs, to see what the engine keeps of what a step produced.
private struct OutputProbe: Step {
    static let id = "output-probe"
    static let summary = "produces outputs"
    static let options: [OptionSpec] = []
    static let examples: [String] = []
    static let outputs = [OutputSpec("count", .integer, "a count"), OutputSpec("ids", .list, "some ids")]
    static func build(_ options: OptionReader, in context: BuildContext) -> OutputProbe? { OutputProbe() }
    func run(in context: StepContext) async throws -> StepResult { StepResult(summary: "ran") }
}

@Suite struct StepOutputTests {
    @Test func theReportKeepsDeclaredOutputsInTheirOrderAndOfTheirType() {
        let produced: StepOutputs = ["ids": .list(["a", "b"], total: 2), "count": .integer(3), "stray": .string("x")]
        #expect(PipelineEngine.declared(produced, of: OutputProbe.self)
            == .object([ReportField("count", .int(3)), ReportField("ids", .array([.string("a"), .string("b")]))]))
        // A value of another type than declared is not handed on.
        #expect(PipelineEngine.declared(["count": .string("3")], of: OutputProbe.self) == nil)
    }

    @Test func aListThatHoldsOnlyItsFirstValuesSaysHowManyThereWere() {
        #expect(OutputValue.list(["a"], total: 1).report == .array([.string("a")]))
        #expect(OutputValue.list(["a"], total: 7).report == .object([ReportField("first", .array([.string("a")])), ReportField("total", .int(7))]))
        #expect(OutputSpec.ValueType.list.documentation == "list of strings")
    }
}
