import ArgumentParser
import RunFlow

extension RunFlowError {
    /// How the command ends: a held lock is said on standard error and exits 75; a store that cannot be
    /// used exits 78 (set up wrongly), 75 (unreachable now) or 1.
    func commandError(console: Console) -> any Error {
        switch self {
        case .locked, .otherSplitRunning:
            console.errorLine("pushline: " + message)
            return ExitStatus.exit(exitCode)
        case .store, .shardMismatch, .nameTaken:
            return CommandFailure(message, exitCode: exitCode)
        }
    }
}
