import ArgumentParser
import PipelineCore
import RunStore

/// `--shard I/N` on the command line.
extension Shard: ExpressibleByArgument {
    package init?(argument: String) {
        self.init(argument)
    }

    package static var defaultCompletionKind: CompletionKind { .default }
}
