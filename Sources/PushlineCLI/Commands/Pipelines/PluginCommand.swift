import ArgumentParser
import Engine
import Foundation
import PipelineConfig
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
            commandName: "check",
            abstract: "Drive a plugin through the protocol and report each violation with what to fix.",
            discussion: """
                Starts the plugin as a pipeline would (in this folder, with only the --env values as its environment) \
                and has each conversation the protocol defines: describe; for each set of sample options, the host's \
                own reading (unknown and missing keys, types, as a pipeline reads a step) and the plugin's check; a \
                method it does not know (it must answer with an error); a dry run when it declares no external \
                effects; and a run. The samples are --options when given, else the plugin's own examples. A plugin \
                with external effects is run only with --run: it would act for real. A line that is not JSON (a log \
                on stdout), a missing or wrong id, a line over 1 MiB, an exit code that contradicts the answer, a \
                declared output the run leaves unset, a hang: each fails its part. A part that cannot be tried is \
                skipped, saying why. The protocol: docs/plugin-protocol.md.

                EXAMPLES:
                  pushline plugin check -- python3 plugins/http_rows.py
                  pushline plugin check --options '{"url": "http://127.0.0.1:8000/members"}' -- python3 plugins/http_rows.py
                  pushline plugin check --run --options '{url: "https://example.com/hook", text: hi}' -- ./webhook.py

                \(ExitStatus.help([.init("0", "no part failed (some may have been skipped)"), .init("1", "a part failed"), .usage]))
                """)

        @Option(
            help: ArgumentHelp(
                "Sample options, as under the step in a pipeline: a JSON object or a YAML mapping (`{url: …}`). "
                    + "Default: the plugin's own examples.", valueName: "options"))
        var options: String?

        @Option(
            name: .customLong("env"),
            help: ArgumentHelp(
                "A variable of the plugin's environment (repeatable); it gets nothing else.", valueName: "NAME=value"))
        var environment: [String] = []

        @Option(
            help: ArgumentHelp(
                "The plugin's name in messages, as a pipeline's `plugins:` would name it. Default: the name its examples use, "
                    + "else its file's.", valueName: "name"))
        var name: String?

        @Flag(
            name: .customLong("run"),
            help: "Also run a plugin that has external effects: it acts for real (posts, writes).")
        var runForReal = false

        @Flag(help: "Make no run at all (only the dry run of a plugin without external effects).")
        var noRun = false

        @Option(
            help:
                "How long the dry run and the run may each take, as a pipeline's `timeout:` (describe and check get 30 s, as in a pipeline)."
        )
        var timeout: String = "1m"

        @Argument(parsing: .postTerminator, help: "The plugin's command and arguments, after `--`.")
        var command: [String] = []

        func validate() throws {
            guard !command.isEmpty else {
                throw ValidationError(
                    "give the plugin's command after `--`, e.g. `pushline plugin check -- python3 my_plugin.py`")
            }
            guard ConfigDuration.seconds(timeout) != nil else {
                throw ValidationError("--timeout takes a duration such as 30s or 2m")
            }
            for pair in environment where !pair.contains("=") {
                throw ValidationError("--env takes NAME=value, found '\(pair)'")
            }
            if runForReal, noRun { throw ValidationError("give --run or --no-run, not both") }
        }

        func run() async throws {
            let console = Console.current
            let directory = FileManager.default.currentDirectoryPath
            guard
                let program = FilePath.executable(
                    command[0], relativeTo: directory, searchPath: console.environment["PATH"])
            else {
                throw CommandFailure(
                    command[0].contains("/")
                        ? "no executable file at '\(command[0])'" : "no program '\(command[0])' on PATH",
                    exitCode: ExitStatus.invalidInput)
            }
            let loader = PipelineLoader(options: LoaderOptions(purpose: .validate, environment: console.environment))
            var given: ConfigNode?
            if let options {
                let diagnostics = DiagnosticCollector()
                let node = loader.loadData(
                    text: options, name: "--options", resolvingReferences: true, directory: directory,
                    diagnostics: diagnostics)
                guard let node, node.entries != nil, !diagnostics.diagnostics.hasErrors else {
                    let why =
                        diagnostics.diagnostics.first { $0.severity == .error }?.message
                        ?? "it is not a mapping of keys"
                    throw CommandFailure(
                        "--options must be a JSON object or a YAML mapping, e.g. '{\"segment\": \"vip\"}': \(why)",
                        exitCode: ExitStatus.invalidInput)
                }
                given = node
            }
            var variables: [String: String] = [:]
            for pair in environment {
                let parts = pair.split(separator: "=", maxSplits: 1)
                variables[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            let runs: PluginConformance.Runs = noRun ? .none : runForReal ? .all : .safe
            var check = PluginConformance(
                command: [program] + command.dropFirst(), name: name ?? Self.fileName(command),
                directory: directory, environment: variables, timeout: ConfigDuration.seconds(timeout) ?? 60, runs: runs
            )
            var findings: [PluginConformance.Finding] = []
            let (described, description) = await check.describe()
            findings.append(described)
            if let description {
                var samples: [PluginConformance.Sample] = []
                if let given {
                    samples = [.init(label: "--options", options: given)]
                } else {
                    let (examples, problems) = Self.examples(description.examples, loader: loader, directory: directory)
                    samples = examples.map(\.sample)
                    findings += problems
                    // The examples name the plugin as a pipeline's `plugins:` would.
                    if name == nil, let named = examples.first?.kind {
                        check = PluginConformance(
                            command: [program] + command.dropFirst(), name: named, directory: directory,
                            environment: variables, timeout: ConfigDuration.seconds(timeout) ?? 60, runs: runs)
                    }
                }
                findings += await check.findings(after: description, samples: samples)
            }
            for finding in findings {
                let mark =
                    switch finding.outcome {
                    case .passed: "ok  "
                    case .failed: "FAIL"
                    case .skipped: "skip"
                    }
                console.line("\(mark) \(finding.part): \(finding.message)")
                for detail in finding.details { console.line("       \(detail)") }
            }
            let failed = findings.filter { $0.outcome == .failed }.count
            let skipped = findings.filter { $0.outcome == .skipped }.count
            let note = skipped == 0 ? "" : " (\(skipped) skipped)"
            console.line(
                failed > 0
                    ? "plugin check: \(failed) of \(findings.count) parts failed\(note)"
                    : skipped == 0
                        ? "plugin check: all \(findings.count) parts passed" : "plugin check: no part failed\(note)")
            if failed > 0 { throw ExitStatus.exit(1) }
        }

        /// The plugin's file name without its extension (`plugins/http_rows.py` → `http_rows`): the last argument that
        /// names a file, else the program.
        static func fileName(_ command: [String]) -> String {
            let file = command.dropFirst().last { $0.contains("/") || $0.contains(".") } ?? command[0]
            return URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        }

        /// The options of each example (YAML steps, as under `steps:`): the value under the step's kind, the kind
        /// being the plugin's name. An example that is not a step is a failed part of its own.
        static func examples(_ texts: [String], loader: PipelineLoader, directory: String)
            -> (examples: [(kind: String, sample: PluginConformance.Sample)], problems: [PluginConformance.Finding])
        {
            var examples: [(kind: String, sample: PluginConformance.Sample)] = []
            var problems: [PluginConformance.Finding] = []
            for (offset, text) in texts.enumerated() {
                let label = "example \(offset + 1)"
                let diagnostics = DiagnosticCollector()
                let node = loader.loadData(
                    text: text, name: label, resolvingReferences: true, directory: directory, diagnostics: diagnostics)
                let step = node?.items?.first ?? node
                guard let entries = step?.entries,
                    let kind = entries.first(where: { !StepEntryKeys.keys.contains($0.key) }),
                    !diagnostics.diagnostics.hasErrors
                else {
                    let why =
                        diagnostics.diagnostics.first { $0.severity == .error }?.message
                        ?? "it has no key naming the step's kind"
                    problems.append(
                        .init(
                            part: "describe", outcome: .failed,
                            message: "\(label) is not a step as written under steps: \(why)",
                            details: [
                                "write each example as YAML: `- id: members` and, under the plugin's name, its options"
                            ]))
                    continue
                }
                examples.append((kind.key, .init(label: label, options: kind.value)))
            }
            return (examples, problems)
        }
    }
}
