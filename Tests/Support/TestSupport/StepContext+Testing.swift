import Foundation
import PipelineCore
import PushlineLogging

extension StepContext {
    /// A step's context in a test: a logger that writes only critical messages, `clock`, the pipeline `document`
    /// (an empty `p.yaml` unless given), a fresh run state, a dry run unless `dryRun` is false, and `transport` (the dry
    /// run's, which sends nothing, unless given).
    package static func forTesting(
        document: PipelineDocument = PipelineDocument(file: "p.yaml", directory: "."),
        transport: any HubTransport = DryRunTransport(), dryRun: Bool = true, clock: WallClock = .system
    ) -> StepContext {
        StepContext(
            logger: PushlineLogging.logger(label: "test", level: "critical")!, clock: clock, document: document,
            state: RunState(), isDryRun: dryRun, transport: transport)
    }
}
