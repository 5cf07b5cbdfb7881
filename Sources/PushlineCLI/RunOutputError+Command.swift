import RunFlow

extension RunOutputError {
    /// How the command ends: a file found unwritable before the run is an input error (exit 2); one that could
    /// not be written after it is said on standard error and exits 1 (the run's outcome stands).
    func commandError(console: Console) -> any Error {
        guard exitCode == ExitStatus.invalidInput else {
            console.errorLine("error: " + message)
            return ExitStatus.exit(exitCode)
        }
        return CommandFailure(message)
    }
}
