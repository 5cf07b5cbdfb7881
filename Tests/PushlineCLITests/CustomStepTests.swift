import BuiltinSteps
import CommandTestSupport
import Foundation
import PipelineCore
import Testing

@testable import PushlineCLI

/// A step written in Swift, as a team's own `pushline` adds it: `PushlineMain.run(_:steps:)` builds the registry once
/// and every command reads it.
struct ShoutStep: Step {
    static let id = "shout"
    static let summary = "Hands on its text in capitals."
    static let options = [OptionSpec("text", .string, required: true, "what to shout")]
    static let outputs = [OutputSpec("loud", .string, "the text in capitals")]
    static let examples = ["- shout: { text: hello }"]

    let text: String

    static func build(_ options: OptionReader, in context: BuildContext) -> ShoutStep? {
        options.string("text").map { ShoutStep(text: $0.value) }
    }

    func run(in context: StepContext) async throws -> StepResult {
        var result = StepResult(summary: "shouted")
        result.outputs = ["loud": .string(text.uppercased())]
        return result
    }
}

@Suite("A pushline with steps of its own")
struct CustomStepTests {
    let steps = BuiltinSteps.kinds + [StepKind(ShoutStep.self)]

    @Test("every command knows the step: steps, schema, validate and run")
    func everyCommandKnowsTheStep() async throws {
        let listed = await CommandRunner.run(["steps"], steps: steps)
        #expect(listed.out.contains("shout") && listed.out.contains("Hands on its text in capitals."))
        let schema = await CommandRunner.run(["schema"], steps: steps)
        #expect(schema.out.contains("\"shout-step\""))
        let directory = NSTemporaryDirectory() + "pushline-shout-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
        version: 1
        steps:
          - id: s
            shout: { txet: hi }

        """.write(toFile: directory + "/p.yaml", atomically: true, encoding: .utf8)
        let misspelled = await CommandRunner.run(["validate", directory + "/p.yaml"], steps: steps)
        #expect(misspelled.status == 2)
        #expect(
            misspelled.err.contains("p.yaml:4:14: error: [shout] unknown key 'txet'; did you mean 'text'?"),
            "\(misspelled.err)")
        try """
        version: 1
        steps:
          - id: s
            shout: { text: hi }
          - shout: { text: "${steps.s.loud} again" }

        """.write(toFile: directory + "/p.yaml", atomically: true, encoding: .utf8)
        let run = await CommandRunner.run(["run", directory + "/p.yaml", "--format", "json"], steps: steps)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains(#""loud" : "HI AGAIN""#), "\(run.out)")
        // The plain pushline does not know it.
        #expect(await CommandRunner.run(["validate", directory + "/p.yaml"]).err.contains("unknown step 'shout'"))
    }

    @Test("two steps of one name are refused before any command runs")
    func duplicateNames() async {
        let output = await CommandRunner.run(["steps"], steps: steps + [StepKind(ShoutStep.self)])
        #expect(output.status == 78)
        #expect(output.err.contains("two steps are called 'shout'"))
    }
}
