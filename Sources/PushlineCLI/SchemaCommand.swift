import ArgumentParser
import BuiltinSteps
import PipelineConfig
import PushService
import RunFlow

/// `pushline schema`: the JSON Schema of pipeline files, for editors and CI.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of pipeline files, or with --service of service files.",
        discussion: """
            Generated from the steps this Pushline knows: every key, its type, default, allowed values and \
            examples. Unknown keys are rejected where `pushline validate` rejects them. The repository commits \
            it as pipelines/pipeline.schema.json; a pipeline that starts with the line
              # yaml-language-server: $schema=./pipeline.schema.json
            gets completion and inline errors in VS Code (YAML extension) and Neovim (yaml-language-server).

            EXAMPLES:
              pushline schema > pipelines/pipeline.schema.json
              pushline schema | diff - pipelines/pipeline.schema.json
              pushline schema --service > pipelines/service.schema.json

            \(ExitStatus.help([.ok]))
            """)

    @Flag(help: "The schema of service files (`pushline serve`) instead of pipeline files.")
    var service = false

    func run() async throws {
        Console.current.out(service ? PipelineSchema(serviceKeys: ServiceSettingsDecoder.serviceKeys).json
                                    : PipelineSchema(registry: BuiltinSteps.registry()).json)
    }
}
