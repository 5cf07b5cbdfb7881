import ArgumentParser
import BuiltinSteps
import PipelineConfig
import RunFlow

/// `pushline schema`: the JSON Schema of pipeline files, for editors and CI.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of pipeline files.",
        discussion: """
            Generated from the steps this Pushline knows: every key, its type, default, allowed values and \
            examples. Unknown keys are rejected where `pushline validate` rejects them. The repository commits \
            it as pipelines/pipeline.schema.json; a pipeline that starts with the line
              # yaml-language-server: $schema=./pipeline.schema.json
            gets completion and inline errors in VS Code (YAML extension) and Neovim (yaml-language-server).

            EXAMPLES:
              pushline schema > pipelines/pipeline.schema.json
              pushline schema | diff - pipelines/pipeline.schema.json

            \(ExitStatus.help([.ok]))
            """)

    func run() async throws {
        Console.current.out(PipelineSchema(registry: BuiltinSteps.registry()).json)
    }
}
