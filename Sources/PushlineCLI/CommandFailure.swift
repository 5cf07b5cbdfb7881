/// A command that cannot do what was asked for a reason the user must fix (exit 2).
///
/// Unlike ArgumentParser's `ValidationError`, it prints just `error: <message>`, not the usage text:
/// the command line was fine, the input it named was not.
struct CommandFailure: Error, Equatable {
    /// What is wrong and, ideally, what to do.
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
