import Foundation
import PipelineCore
import PluginProtocol

/// What `pushline plugin check` finds: a plugin driven through each part of the protocol on its own, without a
/// pipeline, with sample options read exactly as a pipeline reads a step's (the host's key and type rules, then the
/// plugin's own `check`). Each part passed, failed with every violation and what to fix, or was skipped with why.
package struct PluginConformance: Sendable {
    /// One part's outcome.
    package struct Finding: Sendable, Equatable {
        /// How a part ended.
        package enum Outcome: String, Sendable {
            case passed, failed, skipped
        }

        /// Which part: `describe`, `options`, `check`, `unknown method`, `dry run`, `run`, with the sample it used.
        package var part: String
        /// Whether the plugin did what the protocol asks.
        package var outcome: Outcome
        /// What happened, or why the part was not tried.
        package var message: String
        /// Every violation and what to fix, and the plugin's last stderr lines.
        package var details: [String]

        package init(part: String, outcome: Outcome, message: String, details: [String]) {
            self.part = part
            self.outcome = outcome
            self.message = message
            self.details = details
        }
    }

    /// A set of sample options: given with `--options`, or one of the plugin's own examples.
    package struct Sample: Sendable {
        /// How findings name it: `--options`, `example 1`.
        package var label: String
        /// The options as a pipeline would hold them under the step.
        package var options: ConfigNode

        package init(label: String, options: ConfigNode) {
            self.label = label
            self.options = options
        }
    }

    /// Which runs to make.
    package enum Runs: Sendable {
        /// A dry run and a run when the plugin has no external effects; only a dry run is safe otherwise, and a
        /// plugin with external effects has none: it is not run.
        case safe
        /// Also a run of a plugin with external effects: it acts for real (`--run`).
        case all
        /// No run at all, only the dry run of a plugin without effects (`--no-run`).
        case none
    }

    /// The plugin.
    package var host: PluginHost
    /// Which runs to make.
    package let runs: Runs

    /// Creates a check of the plugin `command` (run in `directory` with only `environment`), named `name` in
    /// messages, whose dry run and run may each take `timeout` seconds.
    package init(
        command: [String], name: String, directory: String, environment: [String: String], timeout: Int64, runs: Runs
    ) {
        let location = SourceLocation(file: "-", line: 1, column: 1)
        // As in a pipeline, the variables named like secrets are secret (`plugin check` has no `secret-env:`).
        host = PluginHost(
            declaration: PluginDeclaration(
                name: name, location: location, command: command,
                shownCommand: command.joined(separator: " "), commandLocation: location,
                environment: environment, timeout: timeout), directory: directory)
        self.runs = runs
    }

    /// Hides the plugin's secrets (and those of the options `host` is given) in what is shown of its words.
    private var redact: PluginRedaction { PluginRedaction(host.declaration, options: host.optionSecrets) }

    /// The plugin's description and the part that says how asking for it went (nil description: nothing else can run).
    package func describe() async -> (finding: Finding, description: PluginDescription?) {
        do {
            let description = try await host.describe()
            let options = description.options.map { $0.key + ($0.isRequired ? " (required)" : "") }
            let outputs = description.outputs.map { "\($0.name) (\($0.type.rawValue))" }
            let examples =
                description.examples.isEmpty
                ? "none (optional: `pushline steps` and editors show them, and this check uses them)"
                : "\(description.examples.count)"
            return (
                Finding(
                    part: "describe", outcome: .passed,
                    message:
                        "protocol \(description.protocolVersion), effects \(description.effects.rawValue): \(redact(description.summary))",
                    details: [
                        "options: " + (options.isEmpty ? "none" : options.joined(separator: ", ")),
                        "outputs: " + (outputs.isEmpty ? "none" : outputs.joined(separator: ", ")),
                        "examples: " + examples,
                    ]),
                description
            )
        } catch {
            return (Self.failed("describe", error), nil)
        }
    }

    /// Every part after `describe`, in order. Each sample's options are read by the host's rules and checked by the
    /// plugin; the dry run and the run use the first sample both accept (with every reference resolved). A part that
    /// cannot be tried (no usable sample, effects outside the run, an earlier part that hung) is skipped, saying why.
    package func findings(after description: PluginDescription, samples: [Sample]) async -> [Finding] {
        var findings = descriptionProblems(description)
        var usable: (label: String, options: PluginValue)?
        var unusable: [String] = []
        var hung: String?
        for sample in samples {
            let (optionsFinding, typed) = read(sample, description)
            findings.append(optionsFinding)
            if let hung {
                findings.append(
                    Self.skipped("check (\(sample.label))", "an earlier part did not answer in time (\(hung))"))
                continue
            }
            let checked = await check(sample, description)
            findings.append(checked)
            if checked.outcome == .failed, checked.message.contains("did not finish within") { hung = "check" }
            guard optionsFinding.outcome == .passed, checked.outcome == .passed, let typed else {
                unusable.append("\(sample.label): refused")
                continue
            }
            if let reference = Self.unresolvedReference(in: sample.options) {
                unusable.append("\(sample.label): \(reference) has no value here")
                continue
            }
            if usable == nil { usable = (sample.label, typed) }
        }
        if let hung {
            findings.append(Self.skipped("unknown method", "an earlier part did not answer in time (\(hung))"))
        } else {
            do {
                try await host.probe(method: "pushline-check-unknown-method")
                findings.append(
                    Finding(
                        part: "unknown method", outcome: .passed,
                        message: "a method it does not know is answered with an error", details: []))
            } catch {
                findings.append(Self.failed("unknown method", error))
                if Self.timedOut(error) { hung = "unknown method" }
            }
        }
        // No options at all is a sample of its own when the plugin requires none.
        if samples.isEmpty, !description.options.contains(where: \.isRequired) { usable = ("no options", .object([:])) }
        let noSample: String? =
            usable != nil
            ? nil
            : samples.isEmpty
                ? "no sample options: give --options '{…}', or add \"examples\" to describe"
                : "no sample could run (\(unusable.joined(separator: "; "))); give --options '{…}' with every value"
        let dryRunPart = "dry run" + (usable.map { " (\($0.label))" } ?? "")
        let runPart = "run" + (usable.map { " (\($0.label))" } ?? "")
        if description.effects == .none {
            if let why = hung.map({ "an earlier part did not answer in time (\($0))" }) ?? noSample {
                findings.append(Self.skipped(dryRunPart, why))
            } else if let usable {
                let finding = await run(description, options: usable.options, part: dryRunPart, dryRun: true)
                findings.append(finding)
                if finding.outcome == .failed, finding.message.contains("did not finish within") { hung = "dry run" }
            }
        } else {
            findings.append(Self.skipped(dryRunPart, "a plugin with external effects is not run by a dry run"))
        }
        let runWhy: String? =
            switch (runs, description.effects) {
            case (.none, _): "--no-run"
            case (.safe, .external): "it has external effects and would act for real: give --run to run it"
            default: hung.map { "an earlier part did not answer in time (\($0))" } ?? noSample
            }
        if let runWhy {
            findings.append(Self.skipped(runPart, runWhy))
        } else if let usable {
            findings.append(await run(description, options: usable.options, part: runPart, dryRun: false))
        }
        return findings
    }

    /// The host's reading of a sample, as a pipeline's: unknown keys, missing required ones, wrong types, each listed.
    private func read(_ sample: Sample, _ description: PluginDescription) -> (Finding, PluginValue?) {
        let diagnostics = DiagnosticCollector()
        let reader = OptionReader(
            sample.options, specs: description.options, step: host.declaration.name,
            what: "plugin '\(host.declaration.name)' options", diagnostics: diagnostics)
        let typed = PluginOptions.read(reader)
        let errors = diagnostics.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            return (
                Finding(
                    part: "options (\(sample.label))", outcome: .failed,
                    message:
                        "\(errors.count) problem\(errors.count == 1 ? "" : "s") a pipeline would refuse before the plugin sees them",
                    details: errors.map { $0.message + ($0.hint.map { " (\($0))" } ?? "") }), nil
            )
        }
        // Each value as the plugin's run would receive it, or, for a reference, as written; a secret's hidden.
        let redact = PluginRedaction(
            host.declaration,
            options: PluginOptions.secretValues(typed, specs: description.options)
                + PluginOptions.secretValues(PluginOptions.written(sample.options), specs: description.options))
        let details = (sample.options.entries ?? []).map { entry in
            if let reference = Self.unresolvedReference(in: entry.value) {
                return "\(entry.key): \(reference) (a reference: its value is known in a pipeline)"
            }
            return redact("\(entry.key): " + (typed[entry.key]?.json ?? "null"))
        }
        return (
            Finding(
                part: "options (\(sample.label))", outcome: .passed,
                message: "the keys and types are what a pipeline accepts",
                details: details), typed
        )
    }

    /// The plugin's own `check` of a sample, as written (references unresolved), every problem listed.
    private func check(_ sample: Sample, _ description: PluginDescription) async -> Finding {
        let part = "check (\(sample.label))"
        let written = PluginOptions.written(sample.options)
        var host = host
        host.optionSecrets = PluginOptions.secretValues(written, specs: description.options)
        let redact = PluginRedaction(host.declaration, options: host.optionSecrets)
        do {
            let problems = try await host.check(written)
            return Finding(
                part: part, outcome: problems.isEmpty ? .passed : .failed,
                message: problems.isEmpty ? "the plugin accepts the options" : "the plugin refused the options",
                details: problems.map {
                    redact(($0.path.compactMap(\.rowText).joined(separator: ".")) + ": " + $0.message)
                })
        } catch {
            return Self.failed(part, error)
        }
    }

    /// A run with typed options: its rows checked as the engine checks them, its outputs against the declared ones (a
    /// declared output the run leaves unset fails it; a dry run may leave them unset).
    private func run(_ description: PluginDescription, options: PluginValue, part: String, dryRun: Bool) async
        -> Finding
    {
        var host = host
        host.optionSecrets = PluginOptions.secretValues(options, specs: description.options)
        let redact = PluginRedaction(host.declaration, options: host.optionSecrets)
        let rowsOutput = description.outputs.first { $0.type == .rows }
        var writer = PluginRowWriter(sink: nil, declared: rowsOutput?.columns)
        let hasRows = rowsOutput != nil
        let collect: ([PluginValue]) async throws(PluginFailure) -> Void = { batch throws(PluginFailure) in
            try await writer.add(batch)
        }
        do {
            let answer = try await host.run(
                options, context: .init(dryRun: dryRun, pipeline: "plugin-check", step: 1, stepId: nil),
                timeout: .seconds(host.declaration.timeout), logger: nil, rows: hasRows ? collect : nil)
            let outputs = try PluginStep.outputs(of: answer, declared: description.outputs, redact: redact)
            var details = outputs.sorted { $0.key < $1.key }.map { "output \($0.key): \(Self.shown($0.value))" }
            if hasRows {
                details.insert(
                    "rows: \(writer.written)"
                        + (writer.columns.map { " (columns \($0.joined(separator: ", ")))" } ?? ""), at: 0)
            }
            let unset = description.outputs.filter { $0.type != .rows && outputs[$0.name] == nil }.map(\.name)
            let message = answer["summary"]?.string.map { redact($0) } ?? "answered"
            if !unset.isEmpty, !dryRun {
                return Finding(
                    part: part, outcome: .failed, message: message,
                    details: unset.map {
                        "declared output '\($0)' was not set: set it in the result's \"outputs\", or stop declaring it"
                    } + details)
            }
            if !unset.isEmpty { details.append("not set by the dry run: \(unset.joined(separator: ", "))") }
            return Finding(part: part, outcome: .passed, message: message, details: details)
        } catch {
            return Self.failed(part, error)
        }
    }
}
