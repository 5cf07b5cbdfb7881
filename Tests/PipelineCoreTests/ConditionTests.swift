import Testing

@testable import Engine
@testable import PipelineCore

@Suite struct ConditionTests {
    let parser = ConditionParser(
        parameter: { ["channel": .string("ios"), "limit": .integer(5)][$0] },
        environment: { ["REGION": "eu"][$0] })

    private func parse(_ text: String) throws -> ConditionExpression { try parser.parse(text).get() }

    private var outputs: EarlierOutputs {
        var outputs = EarlierOutputs()
        outputs.record(
            [
                "failed": .integer(2), "notification-ids": .list(["n1"], total: 1), "platform": .string("apns"),
                "quiet": .boolean(true),
            ],
            of: "digest")
        // A step that was skipped hands on its outputs empty, with its status (what the engine records: HandedOn).
        outputs.record(["accepted": .integer(0), "status": .string("skipped"), "error": .string("")], of: "apology")
        return outputs
    }

    private func holds(_ text: String, failed: Bool = false, dryRun: Bool = false) throws -> Bool {
        try StepCondition.expression(try parse(text), written: text)
            .holds(
                ConditionSituation(
                    outputs: outputs, earlierFailed: failed, isDryRun: dryRun, consumer: "step 'summary'"))
    }

    @Test func precedenceIsNotThenComparisonThenAndThenOr() throws {
        #expect(
            try parse("!dry-run && ${steps.digest.failed} > 0 || ${param:channel} == \"ios\"")
                == .or(
                    .and(
                        .not(.status(.dryRun)),
                        .compare(
                            .greater, .output(OutputReference(step: "digest", output: "failed")),
                            .constant(.integer(0), written: "0"))),
                    .compare(
                        .equal, .constant(.string("ios"), written: "${param:channel}"),
                        .constant(.string("ios"), written: "\"ios\""))))
        #expect(
            try parse("(true || false) && false")
                == .and(
                    .or(.constant(.boolean(true), written: "true"), .constant(.boolean(false), written: "false")),
                    .constant(.boolean(false), written: "false")))
    }

    @Test func expressionsHoldAsTheirValuesSay() throws {
        #expect(try holds("${steps.digest.failed} > 0 || ${param:channel} == \"android\""))
        #expect(try !holds("${steps.digest.failed} >= 3"))
        #expect(try holds("${steps.digest.notification-ids} != [] && ${steps.digest.notification-ids[0]} == 'n1'"))
        #expect(try holds("${param:limit} <= 5 && ${env:REGION} == \"eu\" && ${env:UNSET} == \"\""))
        #expect(try holds("!dry-run"))
        #expect(try !holds("!dry-run", dryRun: true))
        #expect(try holds("${steps.digest.platform} != \"fcmv1\""))
        // A boolean output is a condition of its own, or compared with true and false.
        #expect(
            try holds("${steps.digest.quiet}") && holds("${steps.digest.quiet} == true")
                && !holds("!${steps.digest.quiet}"))
        #expect(try !holds("${steps.digest.quiet} == false"))
    }

    @Test func anExpressionRunsAfterAFailureOnlyWhenItReadsFailure() throws {
        #expect(try !holds("${steps.digest.failed} > 0", failed: true), "like success, unless it says otherwise")
        #expect(try holds("failure && ${steps.digest.failed} > 0", failed: true))
        #expect(try holds("always || false", failed: true))
    }

    @Test func aSkippedStepsOutputsAreReadEmptyAndAnOutputNobodyMadeIsAFailureNamingBothSteps() throws {
        #expect(
            try holds(
                "${steps.apology.accepted} == 0 && ${steps.apology.status} == \"skipped\" && ${steps.apology.error} == \"\""
            ))
        #expect(throws: StepFailure.self) { try holds("${steps.nobody.accepted} > 0") }
        do { _ = try holds("${steps.nobody.accepted} > 0") } catch let error as StepFailure {
            #expect(
                error.message
                    == "step 'summary' uses ${steps.nobody.accepted}, but step 'nobody' has not produced 'accepted'")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func syntaxErrorsSayWhere() {
        func error(_ text: String) -> ConditionSyntaxError? {
            if case .failure(let error) = parser.parse(text) { error } else { nil }
        }
        #expect(
            error("faliure")
                == ConditionSyntaxError(
                    "unknown name 'faliure'; did you mean 'failure'?", column: 1,
                    hint: "text is quoted (\"ios\"); values come from ${steps.ID.OUTPUT}, ${param:NAME} or ${env:NAME}")
        )
        #expect(error("${steps.a.b} = 1")?.message == "'=' alone is not a comparison")
        #expect(error("${steps.a.b} > ")?.column == 16)
        #expect(error("(true")?.message == "missing ')'")
        #expect(error("\"open")?.message == "unterminated text")
        #expect(
            error("${param:nope} == 1")?.message
                == "${param:nope} has no value: no parameter of that name, or none given")
        #expect(error("${file:x} == 1")?.message == "'${file:x}' cannot be used in when:")
        #expect(error("true false")?.message == "unexpected text after the expression")
    }

    @Test("operators written as words (or, and, not) are named with the symbol when: uses, where they stand")
    func wordOperatorsSuggestTheirSymbols() throws {
        func error(_ text: String) -> ConditionSyntaxError? {
            if case .failure(let error) = parser.parse(text) { error } else { nil }
        }
        #expect(
            error("failure or ${steps.digest.failed} > 0")
                == ConditionSyntaxError(
                    "'or' is not an operator in when:; write ||", column: 9,
                    hint: "the operators are && (and), || (or) and ! (not)"))
        #expect(error("success AND ${param:limit} > 1")?.message == "'AND' is not an operator in when:; write &&")
        #expect(error("not failure")?.message == "'not' is not an operator in when:; write !")
        #expect(error("not failure")?.column == 1)
        #expect(try holds("failure || ${steps.digest.failed} > 0"), "the symbol form of the same condition holds")
    }
}
