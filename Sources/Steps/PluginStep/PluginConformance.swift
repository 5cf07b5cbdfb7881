import Foundation
import PipelineCore
import PluginProtocol

/// What `pushline plugin check` finds: a plugin driven through each part of the protocol on its own, without a
/// pipeline, each part passed or failed with what to fix.
package struct PluginConformance: Sendable {
    /// One part's outcome.
    package struct Finding: Sendable, Equatable {
        /// Which part: `describe`, `check`, `unknown method`, `dry run`, `run`.
        package var part: String
        /// True when the plugin did what the protocol asks.
        package var passed: Bool
        /// What happened.
        package var message: String
        /// What to fix, and the plugin's last stderr lines.
        package var details: [String]
    }

    /// The plugin.
    package var host: PluginHost
    /// Options for `check`, the dry run and the run.
    package let options: PluginValue
    /// Whether to run it for real (a plugin with external effects then acts).
    package let runs: Bool

    /// Creates a check of the plugin `command` (run in `directory` with only `environment`).
    package init(command: [String], directory: String, environment: [String: String], options: PluginValue, timeout: Int64, runs: Bool) {
        host = PluginHost(declaration: PluginDeclaration(name: "plugin", location: SourceLocation(file: "-", line: 1, column: 1), command: command,
                                                         shownCommand: command.joined(separator: " "), commandLocation: SourceLocation(file: "-", line: 1, column: 1),
                                                         environment: environment, timeout: timeout), directory: directory)
        self.options = options
        self.runs = runs
        redact = PluginRedaction(environment)
    }

    /// Hides the plugin's environment in what is shown of its words.
    private let redact: PluginRedaction

    /// Each part in order; a part that needs the description is left out when describe failed.
    package func findings() async -> [Finding] {
        var findings: [Finding] = []
        let description: PluginDescription
        do {
            description = try await host.describe()
            let options = description.options.map { $0.key + ($0.isRequired ? " (required)" : "") }
            let outputs = description.outputs.map { "\($0.name) (\($0.type.rawValue))" }
            findings.append(Finding(part: "describe", passed: true, message: "protocol \(description.protocolVersion), effects \(description.effects.rawValue): \(redact(description.summary))",
                                    details: ["options: " + (options.isEmpty ? "none" : options.joined(separator: ", ")),
                                              "outputs: " + (outputs.isEmpty ? "none" : outputs.joined(separator: ", "))]))
        } catch {
            return [Self.failed("describe", error)]
        }
        findings += descriptionProblems(description)
        do {
            let problems = try await host.check(options)
            findings.append(Finding(part: "check", passed: problems.isEmpty,
                                    message: problems.isEmpty ? "the options are accepted" : "the plugin refused the sample options",
                                    details: problems.map { redact("\($0.path.compactMap(\.rowText).joined(separator: ".")): \($0.message)") }))
        } catch {
            findings.append(Self.failed("check", error))
        }
        do {
            try await host.probe(method: "pushline-check-unknown-method")
            findings.append(Finding(part: "unknown method", passed: true, message: "a method it does not know is answered with an error", details: []))
        } catch {
            findings.append(Self.failed("unknown method", error))
        }
        if let missing = description.options.first(where: { $0.isRequired && options[$0.key] == nil }) {
            findings.append(Finding(part: "run", passed: false, message: "not run: the sample options lack the required '\(missing.key)'",
                                    details: ["give them with --options '{\"\(missing.key)\": …}'"]))
            return findings
        }
        if description.effects == .none {
            findings.append(await run(description, dryRun: true))
        }
        if runs {
            findings.append(await run(description, dryRun: false))
        }
        return findings
    }

    /// A run with the sample options: its rows checked as the engine checks them, its outputs against the declared ones.
    private func run(_ description: PluginDescription, dryRun: Bool) async -> Finding {
        let part = dryRun ? "dry run" : "run"
        var writer = PluginRowWriter(sink: nil)
        let hasRows = description.outputs.contains { $0.type == .rows }
        let collect: ([PluginValue]) async throws(PluginFailure) -> Void = { batch throws(PluginFailure) in try await writer.add(batch) }
        do {
            let answer = try await host.run(options, context: .init(dryRun: dryRun, pipeline: "plugin-check", step: 1, stepId: nil),
                                            timeout: .seconds(host.declaration.timeout), logger: nil, rows: hasRows ? collect : nil)
            let outputs = try PluginStep.outputs(of: answer, declared: description.outputs, redact: redact)
            var details = outputs.sorted { $0.key < $1.key }.map { "output \($0.key): \(Self.shown($0.value))" }
            if hasRows { details.insert("rows: \(writer.written)" + (writer.columns.map { " (columns \($0.joined(separator: ", ")))" } ?? ""), at: 0) }
            return Finding(part: part, passed: true, message: answer["summary"]?.string.map { redact($0) } ?? "answered", details: details)
        } catch {
            return Self.failed(part, error)
        }
    }

    /// What the description says that the host accepts but an author should hear about.
    private func descriptionProblems(_ description: PluginDescription) -> [Finding] {
        var findings: [Finding] = []
        if description.outputs.contains(where: { $0.summary.isEmpty }) {
            findings.append(Finding(part: "describe", passed: false, message: "an output has no summary",
                                    details: ["give each output a \"summary\": `pushline steps` and editors show it"]))
        }
        if description.examples.isEmpty {
            findings.append(Finding(part: "describe", passed: false, message: "no examples",
                                    details: ["add \"examples\": YAML lines as they appear under steps:"]))
        }
        return findings
    }

    private static func shown(_ value: OutputValue) -> String {
        switch value {
        case .integer(let number): "\(number)"
        case .string(let text): "\"\(text.prefix(60))\""
        case .list(let values, let total): "[\(values.prefix(3).joined(separator: ", "))\(total > 3 ? ", …" : "")] (\(total))"
        case .rows(let rows): "\(rows.count) rows"
        }
    }

    private static func failed(_ part: String, _ failure: PluginFailure) -> Finding {
        Finding(part: part, passed: false, message: failure.message,
                details: (failure.hint.map { ["fix: " + $0] } ?? []) + failure.stderr.map { "stderr: " + $0 })
    }
}
