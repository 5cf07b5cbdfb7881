import CancelStep
import Engine
import OutcomesStep
import PipelineCore
import QueryStep
import RegisterStep
import RenderStep
import SendStep
import SignStep

/// The step types that ship with Pushline. The CLI builds its `StepRegistry` from this list;
/// a new step module is added here and nowhere else.
package enum BuiltinSteps {
    /// Every built-in step type, in the order docs list them.
    package static let all: [any Step.Type] = [
        SignStep.self,
        RegisterStep.self,
        RenderStep.self,
        SendStep.self,
        CancelStep.self,
        OutcomesStep.self,
        QueryStep.self,
    ]

    /// Every built-in step's kind, for `PushlineMain.run(_:steps:)` with steps of one's own after them.
    package static var kinds: [StepKind] { all.map { StepKind($0) } }

    /// A registry of the built-in steps.
    package static func registry() -> StepRegistry {
        do {
            return try StepRegistry(all)
        } catch {
            // The list above is fixed at compile time; a duplicate is a programming error caught by tests.
            preconditionFailure("\(error)")
        }
    }
}
