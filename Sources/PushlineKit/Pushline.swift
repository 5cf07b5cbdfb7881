import BuiltinSteps
import Foundation
import PushlineCLI

/// Pushline as a Swift package: your own `pushline` executable, with steps written in Swift beside the built-in ones.
///
/// The executable of your package is one line:
///
/// ```swift
/// import PushlineKit
///
/// await Pushline.main(adding: [GreetStep.self])
/// ```
///
/// Every command of that executable knows the added steps: `validate` checks their options at `file:line:column`,
/// `steps` and `schema` document them, `run`, `render` and `serve` run them, and their outputs feed later steps.
public enum Pushline {
    /// The step kinds every `pushline` has (`sign`, `register`, `render`, `send`, `query`), in the order
    /// `pushline steps` lists them.
    public static var builtinSteps: [StepKind] { BuiltinSteps.kinds }

    /// Runs this process's command line with `steps` added to the built-in ones, and exits with the command's code.
    /// Call it once, from your executable's top level.
    public static func main(adding steps: [any Step.Type]) async -> Never {
        PushlineMain.protectProcess()
        PushlineMain.bootstrapLogging()
        exit(await run(Array(CommandLine.arguments.dropFirst()), adding: steps))
    }

    /// Runs `arguments` (the command line without the program name) with `steps` added to the built-in ones and
    /// returns the exit code, without exiting: for tests of your steps through the commands operators use. A step
    /// whose `id` is already taken, by a built-in step or another added one, is refused with exit code 78 before any
    /// command runs.
    public static func run(_ arguments: [String], adding steps: [any Step.Type]) async -> Int32 {
        await PushlineMain.run(arguments, steps: builtinSteps + steps.map { StepKind($0) })
    }
}
