import Testing

@testable import Engine
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
        #expect(
            PipelineEngine.declared(produced, of: OutputProbe.outputs)
                == .object([ReportField("count", .int(3)), ReportField("ids", .array([.string("a"), .string("b")]))]))
        // A value of another type than declared is not handed on.
        #expect(PipelineEngine.declared(["count": .string("3")], of: OutputProbe.outputs) == nil)
    }

    @Test func aListThatHoldsOnlyItsFirstValuesSaysHowManyThereWere() {
        #expect(OutputValue.list(["a"], total: 1).report == .array([.string("a")]))
        #expect(
            OutputValue.list(["a"], total: 7).report
                == .object([ReportField("first", .array([.string("a")])), ReportField("total", .int(7))]))
        #expect(OutputSpec.ValueType.list.documentation == "list of strings")
    }
}

@Suite struct OutputReferenceTests {
    private func parse(_ text: String) -> OutputReference? { try? OutputReference.parse(Substring(text)).get() }

    @Test func referencesParseWithAndWithoutAnIndex() {
        #expect(
            parse("schedule.notification-ids[0]")
                == OutputReference(step: "schedule", output: "notification-ids", index: 0))
        #expect(parse("digest.accepted") == OutputReference(step: "digest", output: "accepted"))
        #expect(parse("digest.accepted")?.written == "${steps.digest.accepted}")
        for bad in ["digest", ".accepted", "digest.", "di gest.accepted", "d.ids[-1]", "d.ids[x]", "d.ids[0", "d.a.b"] {
            #expect(parse(bad) == nil, "\(bad)")
        }
    }

    /// A scalar written as `parts`, at line 3.
    private func deferred(_ parts: [DeferredPart]) -> ConfigNode {
        ConfigNode(
            .scalar(ConfigScalar(text: "x", sourceText: "written", isPlain: false, deferred: parts)), at: Build.at(3, 9)
        )
    }

    private var outputs: EarlierOutputs {
        var outputs = EarlierOutputs()
        outputs.record(
            [
                "ids": .list(["n1", "n2"], total: 2), "count": .integer(2), "kept": .list(["a"], total: 5),
                "quiet": .boolean(false),
            ], of: "s")
        return outputs
    }

    @Test func valuesGoInAsTextAndAWholeListAsAList() throws {
        let substitution = OutputSubstitution(outputs: outputs, consumer: "step 'next'")
        let text = try substitution.resolve(
            deferred([
                .text("sent "), .output(OutputReference(step: "s", output: "count")), .text(": "),
                .output(OutputReference(step: "s", output: "ids", index: 1)),
            ]))
        #expect(text.scalar?.text == "sent 2: n2")
        let flag = try substitution.resolve(
            deferred([.text("quiet: "), .output(OutputReference(step: "s", output: "quiet"))]))
        #expect(flag.scalar?.text == "quiet: false", "a boolean goes into text as true or false")
        #expect(text.scalar?.sourceText == "written", "messages quote the reference as written")
        #expect(text.scalar?.isUnresolved == false && text.scalar?.deferred == nil)
        let list = try substitution.resolve(
            Build.mapping([("direct", deferred([.output(OutputReference(step: "s", output: "ids"))]))]))
        #expect(list["direct"]?.items?.compactMap(\.scalar?.text) == ["n1", "n2"])
    }

    @Test func aMissingOrUnfitValueIsAFailureNamingBothSteps() {
        let substitution = OutputSubstitution(outputs: outputs, consumer: "step 'next'")
        func failure(_ parts: [DeferredPart]) -> String? {
            do {
                _ = try substitution.resolve(deferred(parts))
                return nil
            } catch { return error.message }
        }
        #expect(
            failure([.output(OutputReference(step: "maybe", output: "accepted"))])
                == "step 'next' uses ${steps.maybe.accepted}, but step 'maybe' has not produced 'accepted'")
        #expect(
            failure([.output(OutputReference(step: "s", output: "ids", index: 2))])
                == "step 'next' uses ${steps.s.ids[2]}, but 'ids' of step 's' holds 2 items")
        #expect(
            failure([.output(OutputReference(step: "s", output: "kept", index: 3))])
                == "step 'next' uses ${steps.s.kept[3]}, but only the first 1 of the 5 items of 'kept' are handed on")
        #expect(
            failure([.output(OutputReference(step: "s", output: "kept"))])
                == "step 'next' uses ${steps.s.kept}, but only the first 1 of its 5 items are handed on; none was used")
        #expect(
            failure([.text("a "), .output(OutputReference(step: "s", output: "ids"))])
                == "step 'next' uses ${steps.s.ids}, a list, where one value goes")
    }
}
