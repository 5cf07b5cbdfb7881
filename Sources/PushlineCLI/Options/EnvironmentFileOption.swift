import ArgumentParser
import Foundation
import PipelineConfig
import PipelineCore
import RunFlow

/// `--env-file FILE`: one environment's settings (staging, production) in a dotenv file, so environments
/// differ by one argument and pipelines are never edited for them.
struct EnvironmentFileOption: ParsableArguments {
    @Option(
        name: .customLong("env-file"),
        help:
            "Read NAME=value settings from this dotenv file (what systemd's EnvironmentFile= reads); they win over the inherited environment."
    )
    var path: String?
}

/// A command that takes `--env-file`: `PushlineMain` runs it with the file's settings in its console's environment.
/// The commands that read the environment (pipelines' `${env:}`, `$NH_CONNECTION`, `$PUSHLINE_JOURNAL`) conform
/// where they are declared, directly or through `HubCommand` and `JournalCommand`, whose option groups carry it.
protocol EnvironmentFileCommand {
    /// The `--env-file` option.
    var settings: EnvironmentFileOption { get }
    /// Called when the file cannot be used, before the command ends with `code`: a command that promises
    /// monitoring an outcome for every end (`run --metrics`) keeps that promise here.
    func environmentFileFailed(exitCode code: Int32, console: Console)
}

extension EnvironmentFileCommand {
    /// The file given with `--env-file`, if any.
    var environmentFile: String? { settings.path }

    func environmentFileFailed(exitCode code: Int32, console: Console) {}
}

/// A command that talks to one hub: its `--env-file` comes with the hub options.
protocol HubCommand: EnvironmentFileCommand {
    var hub: HubOptions { get }
}

extension HubCommand {
    var settings: EnvironmentFileOption { hub.settings }
}

/// A command that reads the run journal: its `--env-file` comes with the journal option.
protocol JournalCommand: EnvironmentFileCommand {
    var store: JournalOption { get }
}

extension JournalCommand {
    var settings: EnvironmentFileOption { store.settings }
}

extension EnvironmentFileOption {
    /// `environment` with the file's variables added (a variable the file sets replaces the inherited one:
    /// the file is what the command line asked for). Throws after printing `file:line:column` diagnostics.
    static func apply(_ path: String, to environment: [String: String], console: Console) throws -> [String: String] {
        let text: String
        do throws(TextFile.Failure) {
            // Read with a limit: a wrong path to a huge file is refused at once, never read whole.
            text = try TextFile.read(path, limit: EnvironmentFile.maxFileBytes)
        } catch {
            throw CommandFailure(error.message(what: "--env-file", name: path))
        }
        let (values, problems) = EnvironmentFile.parse(text, file: path)
        guard problems.isEmpty else {
            for diagnostic in problems { console.err(DiagnosticPrinter.format(diagnostic)) }
            throw CommandFailure("--env-file '\(path)': \(DiagnosticPrinter.summary(problems)); nothing was run")
        }
        return environment.merging(values) { _, fromFile in fromFile }
    }
}
