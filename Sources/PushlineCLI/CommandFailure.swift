/// A command that cannot do what was asked for a reason the user must fix (exit 2 unless it says otherwise:
/// 78 for a run store that is set up wrongly, 75 for one that cannot be reached now).
///
/// Unlike ArgumentParser's `ValidationError`, it prints just `error: <message>`, not the usage text:
/// the command line was fine, the input it named was not.
struct CommandFailure: Error, Equatable {
    /// What is wrong and, ideally, what to do.
    let message: String
    /// The exit code.
    let exitCode: Int32

    init(_ message: String, exitCode: Int32 = ExitStatus.invalidInput) {
        self.message = message
        self.exitCode = exitCode
    }
}
