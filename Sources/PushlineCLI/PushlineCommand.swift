import ArgumentParser
import CProcessControl
import Engine
import Foundation
import PipelineCore
import PushlineLogging
import RunFlow

/// The root command: `pushline <subcommand>`.
package struct PushlineCommand: AsyncParsableCommand {
    /// Command configuration.
    // Every command here names itself: left out, ArgumentParser derives the name with
    // String(describing:), a runtime conformance scan that was a quarter of a cold `validate`.
    package static let configuration = CommandConfiguration(
        commandName: "pushline",
        abstract: "Send Azure Notification Hubs pushes from YAML pipelines.",
        discussion: """
            Pipelines declare hubs, audiences (tag expressions), templates and steps. Validate them \
            before anything is sent, preview what devices receive, then run them.

            EXAMPLES:
              pushline demo
              pushline validate pipelines/
              pushline run pipelines/seed-tutorial.yaml --dry-run
              pushline explain "(follows_RedSox || follows_Cardinals) && location_Boston"

            \(ExitStatus.help(ExitStatus.all))
            """,
        version: PushlineVersion.current,
        subcommands: [
            DemoCommand.self, InitCommand.self, ValidateCommand.self, CheckCommand.self, RunCommand.self,
            TestCommand.self,
            RunsCommand.self, RenderCommand.self, ExplainCommand.self,
            SASCommand.self, EmulatorCommand.self, InstallationCommand.self, RegistrationCommand.self, SendCommand.self,
            NotificationCommand.self, DevicesCommand.self, FcmV1Command.self,
            ScheduleCommand.self, SchemaCommand.self, ServeCommand.self, StepsCommand.self, PluginCommand.self,
            ReferenceCommand.self,
        ])

    /// Creates the command (ArgumentParser needs this).
    package init() {}
}

/// Runs the command line and returns the process exit code. The executable is a one-line wrapper.
package enum PushlineMain {
    /// Installs the process-wide log handler (standard error): plain on a terminal, JSON lines off one.
    /// Call once, from the executable.
    package static func bootstrapLogging() {
        PushlineLogging.bootstrapStandardError(json: isatty(STDERR_FILENO) == 0)
    }

    /// Makes the process non-dumpable on Linux before anything is read: a plugin runs as the same user, and could
    /// otherwise read the hubs' keys from `/proc/<pushline>/environ` or `/proc/<pushline>/mem`. It also means no core
    /// dump (which would hold them) and no debugger attaching without root. Ignores SIGPIPE too (`ignoreBrokenPipes`).
    /// Call once, from the executable.
    package static func protectProcess() {
        _ = pushline_make_nondumpable()
        ignoreBrokenPipes()
    }

    /// SIGPIPE ignored, once, for the whole process: a write to a pipe whose reader is gone (a plugin that exits
    /// before reading its request) then fails with EPIPE, which the writer reports, instead of ending pushline without
    /// a word. Set by the executable at its start, never by a library (a host of `PushlineMain.run`, such as a test,
    /// calls this itself). `Console` still ends the process as Unix tools do when its own output's reader goes.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Parses `arguments` (without the program name), runs the command with the step kinds `steps` (the built-in
    /// ones when nil; a Swift package's own `pushline` passes `BuiltinSteps.kinds + [StepKind(MyStep.self)]`),
    /// and returns its exit code. The registry is built here, once, and every command reads it from the console.
    package static func run(_ arguments: [String], steps: [StepKind]? = nil) async -> Int32 {
        var console = Console.current
        // A run stopped twice ends at once: the one place that ends the process other than returning its code.
        console.endNow = { code in exit(code) }
        if let steps {
            do {
                console.steps = try StepRegistry(kinds: steps)
            } catch {
                console.errorLine(
                    "pushline: two steps are called '\(error.duplicateID)'; each step kind needs a name of its own")
                return ExitStatus.configuration
            }
        }
        do {
            var command = try PushlineCommand.parseAsRoot(arguments)
            // `--env-file` settings are the environment the command reads, for its whole run.
            var runConsole = console
            if let settings = environmentSettings(of: command), let path = settings.environmentFile {
                do {
                    runConsole.environment = try EnvironmentFileOption.apply(
                        path, to: console.environment, console: console)
                } catch {
                    settings.environmentFileFailed(exitCode: ExitStatus.invalidInput, console: console)
                    throw error
                }
            }
            try await Console.$current.withValue(runConsole) {
                if var asyncCommand = asAsync(command) {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            }
            return ExitStatus.success
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch let failure as CommandFailure {
            console.errorLine("error: \(failure.message)")
            return failure.exitCode
        } catch {
            let code = PushlineCommand.exitCode(for: error)
            let message = PushlineCommand.fullMessage(for: error)
            if code == .success {
                console.line(message)
                return ExitStatus.success
            }
            console.errorLine(message)
            // Usage mistakes are invalid input like any other: exit 2, as documented.
            return code == .validationFailure ? ExitStatus.invalidInput : code.rawValue
        }
    }

    // The two casts below take the command's concrete type (the existential is opened by the call): cast
    // from `any ParsableCommand`, the runtime also looks the protocol up for the existential type, and each
    // lookup that misses scans every conformance record in the binary (0.45 M instructions, every start).

    /// The command's `--env-file` settings, if it takes them.
    private static func environmentSettings<Command: ParsableCommand>(of command: Command) -> (
        any EnvironmentFileCommand
    )? {
        command as? any EnvironmentFileCommand
    }

    /// The command as an async command, if it is one.
    private static func asAsync<Command: ParsableCommand>(_ command: Command) -> (any AsyncParsableCommand)? {
        command as? any AsyncParsableCommand
    }
}
