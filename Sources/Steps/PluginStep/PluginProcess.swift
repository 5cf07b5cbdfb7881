import Logging
import PipelineCore
import PluginProtocol
import Subprocess
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// A plugin's process for one conversation: started in the pipeline's folder with only the environment its
/// declaration lists, its stderr logged, stopped when the conversation takes longer than allowed.
struct PluginProcess: Sendable {
    let declaration: PluginDeclaration
    /// The values of the step's secret options, hidden with the declaration's secrets.
    var optionSecrets: [String] = []
    let directory: String
    let logger: Logger?
    /// How long a plugin has to exit once its stdin is closed.
    let exitGrace: Duration
    /// Fired when the run is stopped (SIGINT, SIGTERM): the plugin's group gets SIGTERM at once, SIGKILL `stopGrace`
    /// later, so a stopped run ends in moments, not when its work would have. Nil for a conversation no run waits on.
    var stop: StopSignal?
    /// How long a plugin stopped with its run has between SIGTERM and SIGKILL.
    var stopGrace: Duration = .seconds(5)

    /// Starts the plugin and runs `body` with a channel to it; then closes its stdin and waits for it to exit. The
    /// conversation is stopped (SIGTERM, then SIGKILL) when it takes longer than `timeout`. A plugin that exits
    /// with a non-zero code, or by a signal, fails the conversation even when it answered.
    ///
    /// `handshake` marks `describe` and `check`, whose limit is fixed (a pipeline's `timeout:` is the run's): what a
    /// plugin is told to do when it passes says so.
    ///
    /// A plugin that exits before reading a request makes the write fail with EPIPE, reported as the plugin's
    /// failure, in a process that ignores SIGPIPE, as `pushline` does from its start: the step does not change the
    /// process's signal dispositions itself.
    func converse<R: Sendable>(
        timeout: Duration, handshake: Bool = false,
        _ body: (PluginChannel) async throws(PluginFailure) -> R
    ) async throws(PluginFailure) -> R {
        let redact = PluginRedaction(declaration, options: optionSecrets)
        let stderr = PluginStderr(logger: logger, redact: redact, keep: PluginProtocol.quotedStderrLines)
        let watch = Watch()
        defer { watch.stop() }
        var environment: [Environment.Key: String] = [:]
        for (name, value) in declaration.environment {
            if let key = Environment.Key(rawValue: name) { environment[key] = value }
        }
        // A process group of its own, so a timeout stops what the plugin started too (`sh` running `python3`).
        var options = PlatformOptions()
        options.processGroupID = 0
        let outcome: Result<R, PluginFailure>
        let expiredWhileTalking: Duration?
        let status: TerminationStatus
        do {
            let result = try await Subprocess.run(
                .path(FilePath(declaration.command[0])), arguments: Arguments(Array(declaration.command.dropFirst())),
                environment: .custom(environment), workingDirectory: FilePath(directory), platformOptions: options,
                input: .inputWriter, output: .sequence, error: .sequence
            ) { execution -> (Result<R, PluginFailure>, Duration?) in
                let pid = execution.processIdentifier.value
                watch.start(pid: pid, after: timeout)
                // Should pushline die without stopping it (SIGKILL), the group is stopped all the same.
                let guardian = PluginGuard.start(group: pid, logger: logger)
                defer { guardian?.release() }
                // Stopped with its run: the group hears of it at once.
                let stopper = Task { [stop, stopGrace] in
                    guard let stop else { return }
                    await stop.wait()
                    guard !Task.isCancelled else { return }
                    watch.stopWithTheRun(pid: pid, grace: stopGrace)
                }
                defer { stopper.cancel() }
                let errors = execution.standardError
                let reader = Task {
                    do { for try await chunk in errors { stderr.feed(chunk.withUnsafeBytes { Array($0) }) } } catch {}
                    stderr.finish()
                }
                let channel = PluginChannel(
                    input: execution.standardInputWriter, output: execution.standardOutput, redact: redact
                ) { error in
                    PluginFailure(redacted(error, redact), stderr: stderr.lastLines)
                }
                var answer: Result<R, PluginFailure>
                do throws(PluginFailure) {
                    answer = .success(try await body(channel))
                } catch {
                    answer = .failure(error)
                }
                let timedOut = watch.expired
                await channel.close()
                // A plugin that broke the protocol is stopped now (it may be blocked writing what is no longer read);
                // one that answered, even with an error, has the grace to finish.
                let broke = if case .failure(let failure) = answer { !failure.answered } else { false }
                watch.start(pid: pid, after: broke && timedOut == nil ? .zero : exitGrace)
                if !broke {
                    do throws(PluginFailure) {
                        try await channel.expectEnd()
                    } catch {
                        if case .success = answer { answer = .failure(error) }
                    }
                }
                await reader.value
                return (answer, timedOut)
            }
            (outcome, expiredWhileTalking) = result.closureResult
            status = result.terminationStatus
            // Whatever it started and left behind goes with it.
            watch.killGroup()
        } catch {
            throw PluginFailure(
                "cannot start plugin '\(declaration.name)' (\(declaration.shownCommand)): \(error)",
                hint: "check the command: its program must exist and be executable", stderr: stderr.lastLines)
        }
        if watch.stoppedWithTheRun {
            var failure = PluginFailure(
                "plugin '\(declaration.name)' was stopped with its run (SIGINT or SIGTERM)",
                hint: "run the same command again to resume the run", stderr: stderr.lastLines)
            failure.stoppedWithTheRun = true
            throw failure
        }
        if let limit = expiredWhileTalking {
            // Stopped mid-conversation, its stdin still open: the work took too long.
            var failure = PluginFailure(
                "plugin '\(declaration.name)' did not finish within \(Self.describe(limit)), so it was stopped",
                hint: handshake
                    ? "answer describe and check within \(Self.describe(limit)), a limit of their own that `timeout:` does not change: "
                        + "do slow work (imports, connections) only for run"
                    : "raise the plugin's `timeout:` if the work takes longer", stderr: stderr.lastLines)
            failure.timedOut = true
            throw failure
        }
        if !outcome.isFailure, let limit = watch.expired {
            // It answered, then went on after its stdin was closed.
            throw PluginFailure(
                "plugin '\(declaration.name)' answered but did not exit within \(Self.describe(limit)) of its stdin closing, "
                    + "so it was stopped", hint: "exit when stdin closes (the end of input): the conversation is over",
                stderr: stderr.lastLines)
        }
        switch (outcome, status) {
        case (.failure(let failure), _):
            // The same failure (what it is, so its code), in words that hold none of the plugin's secrets.
            var redacted = failure
            redacted.message = redact(failure.message)
            redacted.hint = failure.hint.map { redact($0) }
            redacted.stderr = stderr.lastLines
            throw redacted
        case (.success(let value), .exited(0)):
            return value
        case (.success, .exited(let code)):
            throw PluginFailure(
                "plugin '\(declaration.name)' answered, then exited with code \(code)",
                hint: "exit 0 after a result; report a failure as an error message instead", stderr: stderr.lastLines)
        case (.success, let other):
            throw PluginFailure(
                "plugin '\(declaration.name)' answered, then ended abnormally (\(other))", stderr: stderr.lastLines)
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
/// new deadline. A plugin stopped with its run is stopped at once, and no later deadline brings it back.
final class Watch: Sendable {
    private let state = Mutex<(task: Task<Void, Never>?, expired: Duration?, pid: pid_t?, stopped: Bool)>(
        (nil, nil, nil, false))

    /// Arms the watch: `pid`'s process group is stopped unless `stop` or another `start` comes within `limit`.
    func start(pid: pid_t, after limit: Duration) {
        let task = Task { [weak self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self?.state.withLock { $0.expired = limit }
            Self.signal(pid, SIGTERM)
            guard (try? await Task.sleep(for: .seconds(2))) != nil else { return }
            Self.signal(pid, SIGKILL)
        }
        let kept = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.task?.cancel()
            state.task = task
            state.pid = pid
            return true
        }
        if !kept { task.cancel() }
    }

    /// Stops the plugin because its run was stopped: SIGTERM to its group now, SIGKILL after `grace`.
    func stopWithTheRun(pid: pid_t, grace: Duration) {
        let task = Task {
            Self.signal(pid, SIGTERM)
            guard (try? await Task.sleep(for: grace)) != nil else { return }
            Self.signal(pid, SIGKILL)
        }
        state.withLock { state in
            state.task?.cancel()
            state.task = task
            state.pid = pid
            state.stopped = true
        }
    }

    /// True once the plugin was stopped with its run.
    var stoppedWithTheRun: Bool { state.withLock { $0.stopped } }

    /// Stops what is left of the plugin's process group once the plugin has exited. (The group keeps its id while
    /// any member lives, so the id cannot name another process's group.)
    func killGroup() {
        guard let pid = state.withLock({ $0.pid }) else { return }
        kill(-pid, SIGKILL)
    }

    /// `signal` to the group the plugin leads, and to the plugin itself in case it left that group.
    private static func signal(_ pid: pid_t, _ signal: Int32) {
        kill(-pid, signal)
        kill(pid, signal)
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
