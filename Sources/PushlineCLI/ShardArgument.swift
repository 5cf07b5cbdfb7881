import ArgumentParser
import PipelineCore

/// `--shard I/N` on the command line.
extension Shard: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }

    public static var defaultCompletionKind: CompletionKind { .default }
}
