// `StepContext.logger` is swift-log's `Logger`; a step logs through it without depending on swift-log itself.
@_exported import Logging
// The Step API a Swift step is written against: `Step`, its options (`OptionSpec`, `OptionReader`, `BuildContext`),
// outputs (`OutputSpec`, `OutputValue`), what it gets when it runs (`StepContext`) and returns (`StepResult`,
// `StepFailure`), and diagnostics. Everything else in the pipeline core is `package`: not reachable from here.
@_exported import PipelineCore
