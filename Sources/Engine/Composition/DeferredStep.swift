import Foundation
import PipelineCore
import RunStore

/// A step whose options use earlier steps' outputs (`${steps.ID.OUTPUT}`): its options were read once when the
/// pipeline was built, and the keys that hold references are read with their values when it runs.
///
/// At build time the pipeline checked everything that does not depend on those values, and the references
/// themselves (the step exists and comes earlier, the output exists, its type fits the key). A copy built with
/// sample values in the pending keys stands in for what `check` and the run's setup ask before the step runs (its
/// hub access, concurrency and dedupe window). Its input is checked when it runs, before it sends anything.
struct DeferredStep: RunnableStep, ReadsEarlierOutputs {
    /// How messages name the step.
    let kind: StepKind
    /// The options, read, with the keys that wait for values.
    let pending: PendingStep
    /// Its `for-each`: rows opened when the pipeline was built, or a value that holds references, opened when it runs.
    let rows: ForEachRows
    /// The pipeline's declarations, against which a `for-each` path is resolved.
    let context: BuildContext
    /// Every reference in the step's options.
    let outputReferences: [OutputReference]
    /// The step built with sample values, if it builds with them.
    let sample: (any RunnableStep)?

    var access: [HubAccess] { sample?.access ?? [] }
    var concurrency: Int { sample?.concurrency ?? 1 }
    var dedupeWindow: Int64 { sample?.dedupeWindow ?? 0 }
    /// Without a sample, recorded: reading a completed step back is always safe, running a hub step twice is not.
    var recordsCompletion: Bool { sample?.recordsCompletion ?? true }
    func columns(of output: String) -> [String]? { sample?.columns(of: output) }
    var columnsRead: [String] { sample?.columnsRead ?? [] }

    /// Reads the pending keys with the values in, builds the step, checks its input, then runs it.
    func run(in context: StepContext) async throws -> StepResult {
        let consumer = "step '\(context.stepName ?? kind.id)'"
        // Rows are read from a file of this process: the spool, copied out, removed when the step ends.
        var rowFiles: [OutputReference: String] = [:]
        var temporary: [String] = []
        defer { for path in temporary { try? FileManager.default.removeItem(atPath: path) } }
        for reference in outputReferences where rowFiles[reference] == nil {
            guard case .rows(let rows)? = try? context.earlierOutputs.value(of: reference, for: consumer) else {
                continue
            }
            let file = try await RowSpooler.file(
                of: rows, ledger: context.batch.ledger, producer: "step '\(reference.step)'")
            rowFiles[reference] = file.path
            if file.temporary { temporary.append(file.path) }
        }
        let values = OutputSubstitution(outputs: context.earlierOutputs, consumer: consumer, rowFiles: rowFiles)
        let diagnostics = DiagnosticCollector()
        let built: (any RunnableStep)?
        do throws(StepFailure) {
            let rows = try rows(with: values, diagnostics)
            // Rows that do not open leave the step unbuilt: built without them it would not work once per row.
            built = diagnostics.hasErrors ? nil : try pending.build(with: values, rows: rows, diagnostics: diagnostics)
        } catch {
            // A dry run sends nothing, so the ids a live run would hand on do not exist: say what would happen.
            if context.isDryRun {
                return StepResult(summary: "would run with values a live run hands on (nothing sent): \(error.message)")
            }
            throw error
        }
        let errors = diagnostics.diagnostics.filter { $0.severity == .error }
        guard let built, errors.isEmpty else {
            if context.isDryRun {
                // The outputs a dry run hands on are what it planned (no ids, no accepted counts); options that check
                // them would check values a live run does not have.
                return StepResult(
                    summary:
                        "would run with values a live run hands on (nothing sent): \(errors.first?.message ?? "the step cannot be built yet")"
                )
            }
            throw StepFailure(
                "with the outputs of earlier steps in, the options are invalid: \(errors.first?.description ?? "the step cannot be built")",
                hint: errors.first?.hint ?? "check the values the earlier steps produced",
                lines: errors.dropFirst().map(\.description)
            ).coded(.optionsInvalid)
        }
        var context = context
        if let check = try await built.checkInput(in: context) {
            if check.stopsRun {
                var failure = StepFailure(
                    "the input check found \(check.summary); nothing was sent by this step",
                    hint: "fix the rows at their source and run the same command again (it reads them afresh; what was "
                        + "sent is not sent twice), or set `bad-rows: skip`",
                    lines: check.lines)
                failure.rejectsInput = true
                failure.outputs = check.refusedOutputs
                throw failure
            }
            context.inputCheck = check
        }
        return try await built.run(in: context)
    }

    /// The rows of its `for-each`: opened when the pipeline was built, or opened now from the value with `values` in;
    /// nil without `for-each`, or when they cannot be opened (`diagnostics` say why).
    private func rows(with values: OutputSubstitution, _ diagnostics: DiagnosticCollector) throws(StepFailure)
        -> RowSource?
    {
        switch rows {
        case .none, .unusable: return nil
        case .opened(let source): return source
        case .waiting(let value, _):
            return ForEachRows.open(try values.resolve(value), of: kind, in: self.context, diagnostics)
        }
    }
}

/// A step that reads earlier steps' outputs: the engine asks which, to know how long their rows are worth keeping.
protocol ReadsEarlierOutputs {
    /// Every reference in the step's options.
    var outputReferences: [OutputReference] { get }
}
