import PipelineCore

extension SendStep {
    /// The keys that choose where a send goes; exactly one is given.
    static let targetKeys = ["audience", "broadcast", "direct", "direct-file"]
    /// The keys that shape a send, so make no sense next to `cancel`.
    static let sendKeys = ["format", "template", "headers", "test", "schedule", "retry-ambiguous", "properties", "properties-file",
                           "for-each", "concurrency", "rate", "bad-rows", "idempotency-key", "dedupe-window", "shard-key"]

    /// Decodes and checks every option; see `SendOptionsDecoder`.
    public static func build(_ options: OptionReader, in context: BuildContext) -> SendStep? {
        SendOptionsDecoder(options: options, context: context).decode()
    }
}
