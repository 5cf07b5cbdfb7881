#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import PipelineCore
import PluginProtocol
import Subprocess
import Synchronization
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A plugin's process for one conversation: started in the pipeline's folder with only the environment its
/// declaration lists, its stderr logged, stopped when the conversation takes longer than allowed.
struct PluginProcess: Sendable {
    let declaration: PluginDeclaration
    let directory: String
    let logger: Logger?

    /// How long a plugin has to exit once its stdin is closed.
    static let exitGrace: Duration = .seconds(5)

    /// Starts the plugin and runs `body` with a channel to it; then closes its stdin and waits for it to exit. The
    /// conversation is stopped (SIGTERM, then SIGKILL) when it takes longer than `timeout`. A plugin that exits
    /// with a non-zero code, or by a signal, fails the conversation even when it answered.
    func converse<R: Sendable>(timeout: Duration, _ body: (PluginChannel) async throws(PluginFailure) -> R) async throws(PluginFailure) -> R {
        let redact = PluginRedaction(declaration.environment)
        let stderr = PluginStderr(logger: logger, redact: redact, keep: PluginProtocol.quotedStderrLines)
        let watch = Watch()
        defer { watch.stop() }
        var environment: [Environment.Key: String] = [:]
        for (name, value) in declaration.environment {
            if let key = Environment.Key(rawValue: name) { environment[key] = value }
        }
        let outcome: Result<R, PluginFailure>
        let expiredWhileTalking: Duration?
        let status: TerminationStatus
        do {
            let result = try await Subprocess.run(
                .path(FilePath(declaration.command[0])), arguments: Arguments(Array(declaration.command.dropFirst())),
                environment: .custom(environment), workingDirectory: FilePath(directory),
                input: .inputWriter, output: .sequence, error: .sequence
            ) { execution -> (Result<R, PluginFailure>, Duration?) in
                let pid = execution.processIdentifier.value
                watch.start(pid: pid, after: timeout)
                let errors = execution.standardError
                let reader = Task {
                    do { for try await chunk in errors { stderr.feed(chunk.withUnsafeBytes { Array($0) }) } } catch {}
                    stderr.finish()
                }
                let channel = PluginChannel(input: execution.standardInputWriter, output: execution.standardOutput) { error in
                    PluginFailure(redacted(error, redact), stderr: stderr.lastLines)
                }
                let answer: Result<R, PluginFailure>
                do throws(PluginFailure) {
                    answer = .success(try await body(channel))
                } catch {
                    answer = .failure(error)
                }
                let timedOut = watch.expired
                await channel.close()
                // A plugin that broke the protocol is stopped now: it may be blocked writing what is no longer read.
                watch.start(pid: pid, after: answer.isFailure && timedOut == nil ? .zero : Self.exitGrace)
                await reader.value
                return (answer, timedOut)
            }
            (outcome, expiredWhileTalking) = result.closureResult
            status = result.terminationStatus
        } catch {
            throw PluginFailure("cannot start plugin '\(declaration.name)' (\(declaration.shownCommand)): \(error)",
                                hint: "check the command: its program must exist and be executable", stderr: stderr.lastLines)
        }
        if let limit = expiredWhileTalking ?? (outcome.isFailure ? nil : watch.expired) {
            throw PluginFailure("plugin '\(declaration.name)' did not finish within \(Self.describe(limit)), so it was stopped",
                                hint: limit == Self.exitGrace ? "exit when stdin closes" : "raise the plugin's `timeout:` if the work takes longer",
                                stderr: stderr.lastLines)
        }
        switch (outcome, status) {
        case (.failure(let failure), _):
            throw PluginFailure(redact(failure.message), hint: failure.hint.map { redact($0) }, stderr: stderr.lastLines)
        case (.success(let value), .exited(0)):
            return value
        case (.success, .exited(let code)):
            throw PluginFailure("plugin '\(declaration.name)' answered, then exited with code \(code)",
                                hint: "exit 0 after a result; report a failure as an error message instead", stderr: stderr.lastLines)
        case (.success, let other):
            throw PluginFailure("plugin '\(declaration.name)' answered, then ended abnormally (\(other))", stderr: stderr.lastLines)
        }
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        return seconds % 60 == 0 && seconds >= 60 ? "\(seconds / 60) min" : "\(seconds) s"
    }
}

/// A protocol error with the plugin's secrets hidden (a line it wrote may hold one).
private func redacted(_ error: PluginProtocolError, _ redact: PluginRedaction) -> PluginProtocolError {
    PluginProtocolError(redact(error.message), hint: error.hint.map { redact($0) })
}

/// Stops a plugin that runs past its time: SIGTERM, then SIGKILL two seconds later. Restarting it gives the plugin a
/// new deadline.
final class Watch: Sendable {
    private let state = Mutex<(task: Task<Void, Never>?, expired: Duration?)>((nil, nil))

    /// Arms the watch: `pid` is stopped unless `stop` or another `start` comes within `limit`.
    func start(pid: pid_t, after limit: Duration) {
        let task = Task { [weak self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self?.state.withLock { $0.expired = limit }
            kill(pid, SIGTERM)
            guard (try? await Task.sleep(for: .seconds(2))) != nil else { return }
            kill(pid, SIGKILL)
        }
        state.withLock { state in
            state.task?.cancel()
            state.task = task
        }
    }

    /// Disarms it (the process has exited).
    func stop() {
        state.withLock { $0.task?.cancel() }
    }

    /// The limit that ran out, if one did.
    var expired: Duration? { state.withLock { $0.expired } }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
