import PipelineCore

/// Decodes `sign`'s options, reporting every problem with its YAML location before anything runs.
struct SignOptionsDecoder {
    let options: OptionReader
    let context: BuildContext

    func decode() -> SignStep? {
        let hub = context.hub(SignStep.Keys.hub, in: options)
        let lifetime = options.value(SignStep.Keys.lifetime)
        guard let hub, let lifetime else { return nil }
        return SignStep(hub: hub, lifetime: lifetime)
    }
}
