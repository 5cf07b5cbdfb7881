import PipelineCore

extension SendStep {
    /// Decodes and checks every option; see `SendOptionsDecoder`.
    package static func build(_ options: OptionReader, in context: BuildContext) -> SendStep? {
        SendOptionsDecoder(options: options, context: context).decode()
    }
}
