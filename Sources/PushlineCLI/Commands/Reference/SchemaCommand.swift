import ArgumentParser
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
              pushline schema --pipeline pipelines/crm-digest.yaml > pipelines/crm-digest.schema.json

            With --pipeline, the schema also knows the pipeline's plugins: each is asked what it takes (the same \
            cheap handshake `validate` makes), so an editor completes and checks their options too.

            \(ExitStatus.help([.ok, .init("2", "the --pipeline file cannot be read, or a plugin of it did not say what it is")]))
            """)

    @Flag(help: "The schema of service files (`pushline serve`) instead of pipeline files.")
    var service = false

    @Option(help: "A pipeline whose plugins' steps the schema includes.")
    var pipeline: String?

    func run() async throws {
        let console = Console.current
        if service {
            console.out(PipelineSchema(serviceKeys: ServiceSettingsDecoder.serviceKeys).json)
            return
        }
        console.out(PipelineSchema(registry: try await StepsCommand.registry(for: pipeline, console: console)).json)
    }
}
