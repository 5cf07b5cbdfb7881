import ArgumentParser

/// Exit codes, documented in the README and in `pushline --help`.
public enum ExitStatus {
    /// Everything succeeded.
    public static let success: Int32 = 0
    /// A step failed at run time.
    public static let failure: Int32 = 1
    /// Invalid input: a pipeline, template, expression or command line that is wrong. Nothing was sent.
    public static let invalidInput: Int32 = 2

    /// The help text section that lists them.
    static let helpText = """
        EXIT CODES:
          0  success
          1  a step failed while running
          2  invalid input (pipeline, template, expression, arguments); nothing was sent
        """

    /// Throws the given exit code out of a command.
    static func exit(_ code: Int32) -> ExitCode { ExitCode(code) }
}
