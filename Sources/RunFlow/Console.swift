import BuiltinSteps
import Engine
import Foundation
import PipelineCore
import Synchronization

/// Where commands write, what environment they read and what time it is.
///
/// A task-local value so tests run commands in-process and compare exact output, while the
/// executable uses the real streams. Commands never call `print` directly.
package struct Console: Sendable {
    /// Writes text to standard output.
    package var out: @Sendable (String) -> Void
    /// Writes text to standard error.
    package var err: @Sendable (String) -> Void
    /// The environment for `${env:NAME}` and option defaults.
    package var environment: [String: String]
    /// The time source.
    package var clock: WallClock
    /// True when standard error is a terminal: progress is drawn as a bar there, logged as JSON lines otherwise.
    package var isTerminal: Bool
    /// The step kinds pipelines may use: built once where `pushline` starts (`PushlineMain.run(_:steps:)`) and read
    /// by every command, `serve` included. A pipeline's plugins extend it for that pipeline.
    package var steps: StepRegistry = BuiltinSteps.registry()
    /// Ends the process at once with a code: what a second SIGINT or SIGTERM, or a stop past its grace, does to a
    /// run. The executable gives its `exit` (`PushlineMain.run`); a library never ends the process itself, so by
    /// default a console cannot.
    package var endNow: @Sendable (Int32) -> Never = { code in
        preconditionFailure("this console cannot end the process (code \(code)); the executable gives `endNow`")
    }

    /// True for the process's own console (`standard`): a run through it watches the process's SIGINT and SIGTERM. A
    /// console made for a host that runs commands inside its own process (a test) leaves the process's signals alone:
    /// they are not its to take, and runs at once in one process would install and remove the same handlers.
    package var ownsSignals = false

    /// This console with other streams (a quiet one for checks whose words are collected elsewhere).
    package func writing(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void)
        -> Console
    {
        var copy = self
        copy.out = out
        copy.err = err
        return copy
    }

    /// Creates a console.
    package init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        environment: [String: String], clock: WallClock, isTerminal: Bool = false
    ) {
        self.out = out
        self.err = err
        self.environment = environment
        self.clock = clock
        self.isTerminal = isTerminal
    }

    /// The process's own streams, environment and clock.
    package static let standard: Console = {
        var console = Console(
            out: { write($0, to: STDOUT_FILENO) },
            err: { write($0, to: STDERR_FILENO) },
            environment: ProcessInfo.processInfo.environment, clock: .system, isTerminal: isatty(STDERR_FILENO) == 1)
        console.ownsSignals = true
        return console
    }()

    /// Writes all of `text` to `descriptor`. When the reader has gone (`pushline … | head`), the process
    /// ends as Unix tools do, by SIGPIPE, rather than with a crash and a backtrace (Foundation's
    /// `FileHandle.write` traps on any error). Any other failure (a full disk under a redirected log)
    /// loses this output and says so once on standard error; the run itself goes on, so its journal,
    /// report and metrics are still written.
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
                continue
            }
            let code = errno
            if written < 0, code == EINTR { continue }
            if written < 0, code == EAGAIN || code == EWOULDBLOCK {
                usleep(1000)
                continue
            }
            if code == EPIPE {
                // SIGPIPE's default action, which ends the process as it would have without the executable's SIG_IGN.
                signal(SIGPIPE, SIG_DFL)
                raise(SIGPIPE)
                fatalError("SIGPIPE with its default action did not end the process")
            }
            if descriptor != STDERR_FILENO, !warnedOfLostOutput.exchange(true, ordering: .relaxed) {
                write(
                    "pushline: warning: output to descriptor \(descriptor) is lost: \(String(cString: strerror(code)))\n",
                    to: STDERR_FILENO)
            }
            return
        }
    }

    /// Whether the lost-output warning was given.
    private static let warnedOfLostOutput = Atomic<Bool>(false)

    /// The console commands use.
    @TaskLocal package static var current = Console.standard

    /// Writes a line to standard output.
    package func line(_ text: String = "") { out(text + "\n") }
    /// Writes a line to standard error.
    package func errorLine(_ text: String) { err(text + "\n") }
}
