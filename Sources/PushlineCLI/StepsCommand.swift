import ArgumentParser
import BuiltinSteps
import PipelineConfig
import PipelineCore
import RunFlow

/// `pushline steps`: the steps a pipeline may use, each with its options and examples.
struct StepsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "List the steps a pipeline may use, or show one step's options and examples.",
        discussion: """
            Written from the steps' own declarations, the same ones `pushline validate` checks a pipeline \
            against and `pushline schema` describes: every key with its type, bounds, default, what it needs \
            or excludes, and examples. --markdown writes the whole reference (docs/reference/steps.md).

            EXAMPLES:
              pushline steps
              pushline steps send
              pushline steps --markdown > docs/reference/steps.md

            \(ExitStatus.help([.ok, .usage]))
            """)

    @Argument(help: "A step kind (sign, register, render, send); without it, every step in one line each.")
    var kind: String?

    @Flag(help: "Print the whole reference as Markdown.")
    var markdown = false

    func run() async throws {
        let reference = StepReference(registry: BuiltinSteps.registry())
        if markdown {
            Console.current.out(reference.markdown)
            return
        }
        guard let kind else {
            Console.current.out(reference.list)
            return
        }
        guard let type = reference.registry.type(for: kind) else {
            throw CommandFailure("no step '\(kind)'\(Suggestion.didYouMean(kind, in: reference.registry.ids)) (steps: \(reference.registry.ids.joined(separator: ", ")))")
        }
        Console.current.out(reference.text(for: type))
    }
}
