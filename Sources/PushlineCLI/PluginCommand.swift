import ArgumentParser
import Foundation
import PipelineCore
import PluginProtocol
import PluginStep
import RunFlow

/// `pushline plugin check -- COMMAND…`: a plugin author's conformance check, without a pipeline.
struct PluginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin", abstract: "Work on a process plugin: check that it speaks the plugin protocol.",
        subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check", abstract: "Drive a plugin through the protocol and report each violation with what to fix.",
            discussion: """
                Starts the plugin as a pipeline would (in this folder, with only the --env values as its environment) \
                and has each conversation the protocol defines: describe, check with the sample options, a method it \
                does not know (it must answer with an error), a dry run when it declares no external effects, and a \
                run. A line that is not JSON (a log on stdout), a missing or wrong id, a line over 1 MiB, an exit \
                code that contradicts the answer, a hang: each fails its part. The protocol: docs/plugin-protocol.md.

                EXAMPLES:
                  pushline plugin check -- python3 plugins/http_rows.py
                  pushline plugin check --options '{"url": "http://127.0.0.1:8000/members"}' -- python3 plugins/http_rows.py
                  pushline plugin check --no-run --options '{"url": "https://example.com/hook", "text": "hi"}' -- ./webhook.py

                \(ExitStatus.help([.init("0", "every part passed"), .init("1", "a part failed"), .usage]))
                """)

        @Option(help: "The sample options for check, the dry run and the run, as a JSON object.")
        var options: String = "{}"

        @Option(name: .customLong("env"), help: ArgumentHelp("A variable of the plugin's environment (repeatable); it gets nothing else.", valueName: "NAME=value"))
        var environment: [String] = []

        @Flag(help: "Leave out the run (for a plugin with external effects that should not act now).")
        var noRun = false

        @Option(help: "How long the dry run and the run may each take, as a pipeline's `timeout:` (describe and check get 30 s, as in a pipeline).")
        var timeout: String = "1m"

        @Argument(parsing: .postTerminator, help: "The plugin's command and arguments, after `--`.")
        var command: [String] = []

        func validate() throws {
            guard !command.isEmpty else { throw ValidationError("give the plugin's command after `--`, e.g. `pushline plugin check -- python3 my_plugin.py`") }
            guard ConfigDuration.seconds(timeout) != nil else { throw ValidationError("--timeout takes a duration such as 30s or 2m") }
            for pair in environment where !pair.contains("=") { throw ValidationError("--env takes NAME=value, found '\(pair)'") }
        }

        func run() async throws {
            let console = Console.current
            let sample: PluginValue
            do {
                sample = try PluginValue.parse(options)
            } catch {
                throw CommandFailure("--options must be a JSON object: \(error.message)", exitCode: ExitStatus.invalidInput)
            }
            guard case .object = sample else { throw CommandFailure("--options must be a JSON object, e.g. '{\"segment\": \"vip\"}'", exitCode: ExitStatus.invalidInput) }
            let directory = FileManager.default.currentDirectoryPath
            guard let program = FilePath.executable(command[0], relativeTo: directory, searchPath: console.environment["PATH"]) else {
                throw CommandFailure(command[0].contains("/") ? "no executable file at '\(command[0])'" : "no program '\(command[0])' on PATH",
                                     exitCode: ExitStatus.invalidInput)
            }
            var variables: [String: String] = [:]
            for pair in environment {
                let parts = pair.split(separator: "=", maxSplits: 1)
                variables[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            let check = PluginConformance(command: [program] + command.dropFirst(), directory: directory,
                                          environment: variables, options: sample, timeout: ConfigDuration.seconds(timeout) ?? 60, runs: !noRun)
            let findings = await check.findings()
            for finding in findings {
                console.line("\(finding.passed ? "ok  " : "FAIL") \(finding.part): \(finding.message)")
                for detail in finding.details { console.line("       \(detail)") }
            }
            let failed = findings.filter { !$0.passed }.count
            console.line(failed == 0 ? "plugin check: all \(findings.count) parts passed" : "plugin check: \(failed) of \(findings.count) parts failed")
            if failed > 0 { throw ExitStatus.exit(1) }
        }
    }
}
