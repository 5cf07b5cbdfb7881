import ArgumentParser
import Foundation
import PipelineConfig
import PipelineCore
import RunFlow

/// `--env-file FILE`: one environment's settings (staging, production) in a dotenv file, so environments
/// differ by one argument and pipelines are never edited for them.
struct EnvironmentFileOption: ParsableArguments {
    @Option(name: .customLong("env-file"),
            help: "Read NAME=value settings from this dotenv file (what systemd's EnvironmentFile= reads); they win over the inherited environment.")
    var path: String?
}

/// A command that takes `--env-file`: `PushlineMain` runs it with the file's settings in its console's environment.
protocol EnvironmentFileCommand {
    /// The file given with `--env-file`, if any.
    var environmentFile: String? { get }
    /// Called when the file cannot be used, before the command ends with `code`: a command that promises
    /// monitoring an outcome for every end (`run --metrics`) keeps that promise here.
    func environmentFileFailed(exitCode code: Int32, console: Console)
}

extension EnvironmentFileCommand {
    func environmentFileFailed(exitCode code: Int32, console: Console) {}
}

extension EnvironmentFileOption {
    /// `environment` with the file's variables added (a variable the file sets replaces the inherited one:
    /// the file is what the command line asked for). Throws after printing `file:line:column` diagnostics.
    static func apply(_ path: String, to environment: [String: String], console: Console) throws -> [String: String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandFailure("--env-file '\(path)' cannot be read: \(FileManager.default.fileExists(atPath: path) ? "not UTF-8 text or not readable" : "no such file")")
        }
        let (values, problems) = EnvironmentFile.parse(text, file: path)
        guard problems.isEmpty else {
            for diagnostic in problems { console.err(DiagnosticPrinter.format(diagnostic)) }
            throw CommandFailure("--env-file '\(path)': \(DiagnosticPrinter.summary(problems)); nothing was run")
        }
        return environment.merging(values) { _, fromFile in fromFile }
    }
}

// The commands that read the environment (pipelines' ${env:}, $NH_CONNECTION, $PUSHLINE_JOURNAL) take `--env-file`.
extension RunCommand: EnvironmentFileCommand {
    var environmentFile: String? { settings.path }
}
extension ValidateCommand: EnvironmentFileCommand { var environmentFile: String? { settings.path } }
extension RenderCommand: EnvironmentFileCommand { var environmentFile: String? { settings.path } }
extension EmulatorCommand: EnvironmentFileCommand { var environmentFile: String? { settings.path } }
extension DemoCommand: EnvironmentFileCommand { var environmentFile: String? { settings.path } }
extension SASCommand: EnvironmentFileCommand { var environmentFile: String? { hubOptions.settings.path } }
extension SendCommand: EnvironmentFileCommand { var environmentFile: String? { hub.settings.path } }
extension ScheduleCommand.Cancel: EnvironmentFileCommand { var environmentFile: String? { hub.settings.path } }
extension InstallationCommand.Put: EnvironmentFileCommand { var environmentFile: String? { hub.settings.path } }
extension InstallationCommand.Get: EnvironmentFileCommand { var environmentFile: String? { hub.settings.path } }
extension InstallationCommand.Patch: EnvironmentFileCommand { var environmentFile: String? { hub.settings.path } }
extension InstallationCommand.Delete: EnvironmentFileCommand { var environmentFile: String? { hub.settings.path } }
extension RegistrationCommand.Upsert: EnvironmentFileCommand { var environmentFile: String? { hub.settings.path } }
extension RegistrationCommand.Get: EnvironmentFileCommand { var environmentFile: String? { hub.settings.path } }
extension RegistrationCommand.Delete: EnvironmentFileCommand { var environmentFile: String? { hub.settings.path } }
extension RunsCommand.List: EnvironmentFileCommand { var environmentFile: String? { options.settings.path } }
extension RunsCommand.Show: EnvironmentFileCommand { var environmentFile: String? { options.settings.path } }
extension RunsCommand.Resolve: EnvironmentFileCommand { var environmentFile: String? { options.settings.path } }
extension RunsCommand.Find: EnvironmentFileCommand { var environmentFile: String? { options.settings.path } }
