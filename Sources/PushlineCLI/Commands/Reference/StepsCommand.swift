import ArgumentParser
import Engine
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
              pushline steps --pipeline pipelines/crm-digest.yaml http-rows

            \(ExitStatus.help([.ok, .usage]))
            """)

    @Argument(help: "A step kind (sign, register, render, send); without it, every step in one line each.")
    var kind: String?

    @Flag(help: "Print the whole reference as Markdown.")
    var markdown = false

    @Option(help: "A pipeline whose plugins' steps are listed too (each plugin is asked what it takes).")
    var pipeline: String?

    /// The built-in steps, and with `pipeline` the steps its plugins add (their handshakes' answers); a pipeline
    /// that cannot be read, or a plugin that does not answer, is an error.
    static func registry(for pipeline: String?, console: Console) async throws -> StepRegistry {
        guard let pipeline else { return console.steps }
        let loaded = await LoadedPipeline.load(pipeline, purpose: .validate, console: console)
        let unknown = loaded.document?.plugins.filter { loaded.registry.kind(for: $0.name)?.origin == nil } ?? []
        guard loaded.document != nil, unknown.isEmpty else {
            let places = Set(unknown.flatMap { [$0.location, $0.commandLocation] })
            for diagnostic in loaded.diagnostics
            where diagnostic.severity == .error
                && (loaded.document == nil || diagnostic.location.map(places.contains) == true)
            {
                console.err(DiagnosticPrinter.format(diagnostic))
            }
            throw ExitStatus.exit(ExitStatus.invalidInput)
        }
        return loaded.registry
    }

    func run() async throws {
        let reference = StepReference(registry: try await Self.registry(for: pipeline, console: Console.current))
        if markdown {
            Console.current.out(reference.markdown)
            return
        }
        guard let kind else {
            Console.current.out(reference.list)
            return
        }
        guard let type = reference.registry.kind(for: kind) else {
            throw CommandFailure(
                "no step '\(kind)'\(Suggestion.didYouMean(kind, in: reference.registry.ids)) (steps: \(reference.registry.ids.joined(separator: ", ")))"
            )
        }
        Console.current.out(reference.text(for: type))
    }
}
