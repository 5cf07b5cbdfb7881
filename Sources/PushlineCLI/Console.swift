import Foundation
import PipelineCore

/// Where commands write, what environment they read and what time it is.
///
/// A task-local value so tests run commands in-process and compare exact output, while the
/// executable uses the real streams. Commands never call `print` directly.
public struct Console: Sendable {
    /// Writes text to standard output.
    public var out: @Sendable (String) -> Void
    /// Writes text to standard error.
    public var err: @Sendable (String) -> Void
    /// The environment for `${env:NAME}` and option defaults.
    public var environment: [String: String]
    /// The time source.
    public var clock: WallClock
    /// True when standard error is a terminal: progress is drawn as a bar there, logged as JSON lines otherwise.
    public var isTerminal: Bool

    /// Creates a console.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                environment: [String: String], clock: WallClock, isTerminal: Bool = false) {
        self.out = out
        self.err = err
        self.environment = environment
        self.clock = clock
        self.isTerminal = isTerminal
    }

    /// The process's own streams, environment and clock.
    public static let standard = Console(
        out: { write($0, to: .standardOutput) },
        err: { write($0, to: .standardError) },
        environment: ProcessInfo.processInfo.environment, clock: .system, isTerminal: isatty(STDERR_FILENO) == 1)

    /// Writes `text`; when the reader has gone (`pushline … | head`), ends the process as Unix tools do, by
    /// SIGPIPE, rather than with a crash and a backtrace (Foundation's `write(_:)` traps on EPIPE).
    private static func write(_ text: String, to handle: FileHandle) {
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
            exit(128 + SIGPIPE)
        }
    }

    /// The console commands use.
    @TaskLocal public static var current = Console.standard

    /// Writes a line to standard output.
    func line(_ text: String = "") { out(text + "\n") }
    /// Writes a line to standard error.
    func errorLine(_ text: String) { err(text + "\n") }
}
