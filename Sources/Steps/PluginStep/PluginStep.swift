import Foundation
import HubWire
import PipelineCore
import PluginProtocol
import RunStore

/// A step a process plugin does: its options checked by the host against what the plugin declared, the plugin run
/// with them, the rows it sends spooled by the engine, and the outputs it declared handed on.
package struct PluginStep: RunnableStep {
    /// The plugin.
    package let host: PluginHost
    /// What it said it is.
    package let description: PluginDescription
    /// Its options, typed.
    package let options: PluginValue

    /// A plugin's outputs come from outside the run (an API's rows, a post already made): a resumed run reads them
    /// back and never runs the plugin again.
    package var recordsCompletion: Bool { true }

    /// A plugin that hands on rows and has no effects outside the run only reads: a new run reads it before any other step.
    package var readsSource: Bool {
        description.effects != .external && description.outputs.contains { $0.type == .rows }
    }

    /// What the rows are read from, as a digest: the plugin (its name and command, never its environment) and its
    /// options. It names the run's spool of these rows.
    var sourceDigest: String {
        // The environment counts (CRM_URL=staging and =prod are other sources) as a digest of its own, so no value
        // stands in the stored digest's input.
        let environment = ContentDigest.hex(
            host.declaration.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: "\n"))
        return ContentDigest.hex(
            [
                "plugin-v2", host.declaration.name, host.declaration.command.joined(separator: "\u{1F}"), options.json,
                environment,
            ]
            .joined(separator: "\n"))
    }

    /// The columns its rows output declared in `describe`, if it did.
    package func columns(of output: String) -> [String]? {
        description.outputs.first { $0.name == output }?.columns
    }

    /// Runs the plugin (a dry run only when it has no external effects) and hands on what it declared.
    package func run(in context: StepContext) async throws -> StepResult {
        let name = host.declaration.name
        // Its secret options' values are hidden with its declaration's secrets, in all it says and in the journal.
        let secrets = PluginOptions.secretValues(options, specs: description.options)
        var host = host
        host.optionSecrets = secrets
        if context.isDryRun, description.effects == .external {
            return StepResult(
                summary: "would run plugin '\(name)' (it has external effects, so a dry run does not run it)")
        }
        let run = context.isDryRun ? nil : context.batch.run
        let request = PluginRequest.RunContext(
            dryRun: context.isDryRun, pipeline: context.document.name, step: context.stepIndex,
            stepId: context.stepId, stepName: context.stepName, run: run?.id, attempt: run?.attempt,
            idempotencyKey: run.map { "\($0.id)/step-\(context.stepIndex)" })
        let stop = context.batch.stop
        let progress = Self.progress(context)
        let timeout = Duration.seconds(host.declaration.timeout)
        let redact = PluginRedaction(host.declaration, options: secrets)
        var outputs: StepOutputs = [:]
        var lines: [String] = []
        var summary: String
        // What it does outside the run is journalled as one item, so a cut-off run never does it twice (`PluginEffect`).
        let effect =
            description.effects == .external
            ? PluginEffect(context, plugin: name, identity: sourceDigest, repeatSafe: description.repeatSafe) : nil
        if let effect, case .settled(let result) = try await effect.admit() { return result }
        do {
            if let rowsOutput = description.outputs.first(where: { $0.type == .rows }) {
                let spooler = RowSpooler(step: context.stepIndex, source: sourceDigest)
                var answer: PluginValue?
                let (rows, origin) = try await spooler.rows(in: context) { sink in
                    var writer = PluginRowWriter(sink: sink, declared: rowsOutput.columns)
                    answer = try await host.run(
                        options, context: request, timeout: timeout, logger: context.logger, stop: stop,
                        progress: progress
                    ) { batch throws(PluginFailure) in
                        try await writer.add(batch)
                    }
                }
                outputs[rowsOutput.name] = .rows(rows)
                let counted = "\(ItemCounts.grouped(rows.count)) row\(rows.count == 1 ? "" : "s")"
                switch origin {
                case .read:
                    summary = answer?["summary"]?.string.map { redact($0) } ?? "plugin '\(name)' sent \(counted)"
                    if let answer {
                        outputs.merge(try Self.outputs(of: answer, declared: description.outputs, redact: redact)) {
                            kept, _ in kept
                        }
                    }
                case .spooled:
                    summary =
                        "\(counted) spooled by plugin '\(name)' earlier, by this run or another part of it (not run again)"
                }
                if !rows.columns.isEmpty { lines.append("columns: \(rows.columns.joined(separator: ", "))") }
            } else {
                let answer = try await host.run(
                    options, context: request, timeout: timeout, logger: context.logger, stop: stop,
                    progress: progress, rows: nil)
                summary = answer["summary"]?.string.map { redact($0) } ?? "plugin '\(name)' ran"
                outputs = try Self.outputs(of: answer, declared: description.outputs, redact: redact)
            }
            try await effect?.record(.accepted)
        } catch let failure as PluginFailure where failure.stoppedWithTheRun && failure.beforeRunRequest {
            // Stopped before it was asked to run: nothing happened; the resumed run runs it.
            try? await effect?.record(.failed, error: "the run was stopped before plugin '\(name)' was asked to run")
            return StepResult(
                summary: "stopped with the run before plugin '\(name)' was asked to run (it was sent SIGTERM)",
                interrupted: true)
        } catch let failure as PluginFailure where failure.stoppedWithTheRun {
            // Not done: the run is interrupted. Its resumption runs a plugin without external effects again; one with
            // them is of unknown fate (it may have written before it stopped), unless it declared itself repeat-safe.
            try? await effect?.record(.unknown, error: "the run was stopped while plugin '\(name)' ran")
            return StepResult(
                summary: "stopped with the run before plugin '\(name)' finished (it was sent SIGTERM)",
                interrupted: true)
        } catch let failure as PluginFailure {
            // An error the plugin answered says it did nothing, as does any failure before it was given the run request;
            // a timeout, a crash or a broken answer after the request went out says nothing about what it did.
            try? await effect?.record(
                failure.answered || failure.beforeRunRequest ? .failed : .unknown, error: redact(failure.message))
            throw StepFailure(
                "plugin '\(name)': \(redact(failure.message))", hint: failure.hint.map { redact($0) },
                lines: failure.stderr.map { "stderr: \($0)" }
            ).coded(failure.code)
        }
        if context.isDryRun { summary += " (a dry run: the plugin has no external effects, so it ran)" }
        var result = StepResult(summary: summary, lines: lines)
        result.outputs = outputs
        return result
    }

    /// Where a plugin's `progress` messages go: the run's progress (a line on a terminal, log lines under cron).
    static func progress(_ context: StepContext) -> (@Sendable (Int, Int?) -> Void)? {
        guard let sink = context.batch.progress else { return nil }
        let (index, title, dryRun, started) = (
            context.stepIndex, context.stepName ?? context.stepId ?? "plugin", context.isDryRun, ContinuousClock.now
        )
        return { done, total in
            let elapsed = ContinuousClock.now - started
            var progress = StepProgress(
                stepIndex: index, stepId: title, counts: ItemCounts(), total: total,
                elapsed: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                dryRun: dryRun)
            progress.pluginDone = done
            sink.report(progress, final: total.map { done >= $0 } ?? false)
        }
    }

    /// The declared outputs of a run's result (`{"outputs": {"count": 3}}`), each of its declared type; a value of
    /// another type, or one not declared, is a protocol error.
    static func outputs(of answer: PluginValue, declared: [OutputSpec], redact: PluginRedaction) throws(PluginFailure)
        -> StepOutputs
    {
        guard let given = answer["outputs"], given != .null else { return [:] }
        guard case .object(let fields) = given else {
            throw PluginFailure.brokenProtocol("the run result's \"outputs\" must be an object")
        }
        var outputs: StepOutputs = [:]
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            guard let spec = declared.first(where: { $0.name == name }) else {
                throw PluginFailure.brokenProtocol(
                    "the run result has output '\(name)', which the plugin did not declare",
                    hint: "declare it in the describe result's \"outputs\"")
            }
            switch (spec.type, value) {
            case (.integer, .integer(let number)): outputs[name] = .integer(number)
            case (.string, .string(let text)): outputs[name] = .string(redact(text))
            case (.boolean, .bool(let flag)): outputs[name] = .boolean(flag)
            case (.list, .array(let items)) where items.allSatisfy({ $0.rowText != nil }):
                let values = items.compactMap(\.rowText).map { redact($0) }
                outputs[name] = .list(values, total: values.count)
            case (.rows, _):
                throw PluginFailure.brokenProtocol(
                    "output '\(name)' is rows, which are sent in \"rows\" messages, not in the result")
            default:
                throw PluginFailure.brokenProtocol(
                    "output '\(name)' must be \(spec.type.documentation), found \(redact(value.json).prefix(40))")
            }
        }
        return outputs
    }
}

/// Rows a plugin sends, checked and put into the engine's sink (when there is one): the first row's keys (sorted)
/// are the columns; a later row may leave one out (null) but not add one; values are text, numbers, true/false or null.
struct PluginRowWriter {
    let sink: RowSink?
    private(set) var columns: [String]?
    private var known: Set<String> = []
    private(set) var written = 0

    /// The columns the plugin declared its rows have, if it did.
    let declared: [String]?

    init(sink: RowSink?, declared: [String]? = nil) {
        self.sink = sink
        self.declared = declared
    }

    mutating func add(_ batch: [PluginValue]) async throws(PluginFailure) {
        for row in batch {
            written += 1
            guard case .object(let fields) = row else {
                throw PluginFailure.brokenProtocol(
                    "row \(written) is not a JSON object", hint: "send each row as {\"column\": \"value\", …}")
            }
            if columns == nil {
                guard !fields.isEmpty else { throw PluginFailure.brokenProtocol("row 1 has no fields") }
                columns = fields.keys.sorted()
                known = Set(fields.keys)
                // Later steps were checked against the declared columns; rows without one would fail there row by row.
                let lowered = Set(fields.keys.map { $0.lowercased() })
                if let missing = declared?.first(where: { !lowered.contains($0.lowercased()) }) {
                    throw PluginFailure.brokenProtocol(
                        "row 1 has no '\(missing)', a column the plugin declared for its rows",
                        hint:
                            "give every row each declared column (a missing value may be null), or change \"columns\" in describe"
                    )
                }
                sink?.begin(columns: columns!)
            }
            if let extra = fields.keys.filter({ !known.contains($0) }).min() {
                throw PluginFailure.brokenProtocol(
                    "row \(written) has '\(extra)', which the first row does not have",
                    hint: "give every row the first row's keys (a missing value may be null)")
            }
            var values: [String?] = []
            for column in columns! {
                let value = fields[column] ?? .null
                switch value {
                case .array, .object:
                    throw PluginFailure.brokenProtocol(
                        "row \(written), '\(column)' is a list or an object",
                        hint: "row values are text, numbers, true/false or null")
                default:
                    values.append(value.rowText)
                }
            }
            guard let sink else { continue }
            do {
                try await sink.add(values)
            } catch {
                throw PluginFailure("the rows could not be spooled: \(error)")
            }
        }
    }
}
