import PipelineCore

/// The kinds of step a pipeline may use, keyed by id. A value, built once where `pushline` starts and passed down;
/// a pipeline's plugins extend it for that pipeline (`adding(_:)`).
package struct StepRegistry: Sendable {
    /// The registered kinds, in registration order.
    package let kinds: [StepKind]

    /// Creates a registry, rejecting two kinds that claim the same id.
    package init(kinds: [StepKind]) throws(StepRegistryError) {
        var seen: Set<String> = []
        for kind in kinds where !seen.insert(kind.id).inserted {
            throw StepRegistryError(duplicateID: kind.id)
        }
        self.kinds = kinds
    }

    /// A registry of Swift step types.
    package init(_ types: [any Step.Type]) throws(StepRegistryError) {
        try self.init(kinds: types.map { StepKind($0) })
    }

    /// This registry with `more` kinds after its own; a kind whose id is taken is refused.
    package func adding(_ more: [StepKind]) throws(StepRegistryError) -> StepRegistry {
        try StepRegistry(kinds: kinds + more)
    }

    /// The ids of every registered step.
    package var ids: [String] { kinds.map(\.id) }

    /// The kind registered under `id`.
    package func kind(for id: String) -> StepKind? {
        kinds.first { $0.id == id }
    }

    /// Decodes and validates every step of `document`, reporting all problems before anything runs.
    /// Returns nil when any error was reported (including errors reported earlier by the loader).
    package func build(
        _ document: PipelineDocument, diagnostics: DiagnosticCollector, loadDataFile: @escaping DataFileLoader
    ) -> Pipeline? {
        let document = migrated(document, diagnostics)
        let context = BuildContext(document: document, loadDataFile: loadDataFile)
        var built: [BuiltStep] = []
        for var invocation in document.steps {
            invocation = kindFirst(invocation)
            guard let kind = kind(for: invocation.kind) else {
                diagnostics.error(
                    "unknown step '\(invocation.kind)'\(Suggestion.didYouMean(invocation.kind, in: ids))",
                    at: invocation.location, hint: "available steps: \(ids.joined(separator: ", "))")
                reportStrays(invocation, of: nil, diagnostics)
                continue
            }
            reportStrays(invocation, of: kind, diagnostics)
            checkCondition(of: invocation, steps: document.steps, diagnostics)
            checkStepNames(in: invocation, of: kind, steps: document.steps, diagnostics)
            if let step = build(kind, invocation, context, earlier: built, steps: document.steps, diagnostics) {
                built.append(step)
            }
        }
        guard !diagnostics.hasErrors else { return nil }
        return Pipeline(document: document, steps: built)
    }

    private func build(
        _ kind: StepKind, _ invocation: StepInvocation, _ context: BuildContext, earlier: [BuiltStep],
        steps: [StepInvocation],
        _ diagnostics: DiagnosticCollector
    ) -> BuiltStep? {
        let errorsBefore = diagnostics.diagnostics.filter { $0.severity == .error }.count
        let reader = kind.reader(invocation.options, diagnostics: diagnostics)
        let rows = ForEachRows.read(
            invocation.options, of: kind, in: context, declared: { Self.declaredColumns($0, earlier: earlier) },
            diagnostics)
        // Options that use earlier steps' outputs are read and checked now, and the step is built when it runs.
        if !invocation.options.deferredScalars.isEmpty {
            let samples = checkReferences(in: invocation, of: kind, steps: steps, diagnostics)
            let step = Self.deferred(kind, reader, context, rows: rows, samples: samples)
            if case .unusable = rows { return nil }
            var built = BuiltStep(
                index: invocation.index, kind: kind, location: invocation.location, step: step,
                declaredId: invocation.id, name: invocation.name, condition: invocation.condition)
            built.forEachFile = rows.file
            return built
        }
        let built = kind.build(reader, rows: rows.source, in: context)
        // Rows that cannot be read were reported; the step was built only to report its other problems too.
        if case .unusable = rows { return nil }
        guard let step = built else {
            // A step that declines to build must never vanish silently. Steps report their own problems;
            // this catches the case where the cause lies elsewhere (an unresolved reference is the one
            // legitimate silent cause: it was already reported, as a warning for `validate`).
            let errorsAfter = diagnostics.diagnostics.filter { $0.severity == .error }.count
            if errorsAfter == errorsBefore, !invocation.options.containsUnresolved {
                diagnostics.error(
                    "step '\(kind.id)' cannot be built from these options", at: invocation.location,
                    step: kind.id, hint: "check the declarations it refers to; they have errors or are incomplete")
            }
            return nil
        }
        var builtStep = BuiltStep(
            index: invocation.index, kind: kind, location: invocation.location, step: step, declaredId: invocation.id,
            name: invocation.name, condition: invocation.condition)
        builtStep.forEachFile = rows.file
        return builtStep
    }

    /// The columns `reference`'s step declares for its rows before the run (a SQLite query prepared, a plugin's
    /// declared columns), naming the step for messages; nil when only the run knows them.
    private static func declaredColumns(_ reference: OutputReference, earlier: [BuiltStep]) -> KnownColumns? {
        guard let producer = earlier.first(where: { $0.declaredId == reference.step }),
            let columns = producer.step.columns(of: reference.output)
        else { return nil }
        return .declared(columns, step: "step '\(reference.step)' (\(producer.id))")
    }

    /// `invocation` with a registered kind first when its first key is not one and a later key is (`- nmae: x` written
    /// above `send:`), so the error falls on the stray key rather than on the step.
    /// `document` with every step written in a former spelling read as the step it now is, and every key that did
    /// another step's work read as that step after it, each with a warning.
    private func migrated(_ document: PipelineDocument, _ diagnostics: DiagnosticCollector) -> PipelineDocument {
        let migrations = kinds.flatMap(\.formerSpellings)
        let splits = kinds.flatMap(\.formerSplits)
        guard !migrations.isEmpty || !splits.isEmpty else { return document }
        var migrated = document
        var ids = Set(document.steps.compactMap(\.id))
        var steps: [StepInvocation] = []
        var moves: [SplitStep] = []
        // Each split's warning, with its edits; a later step's references to what moved join the edits of its split.
        var warnings: [(split: SplitStep, location: SourceLocation, referenceFixes: [FixIt])] = []
        for var invocation in document.steps {
            invocation = kindFirst(invocation)
            for (index, move) in moves.enumerated() {
                let (options, optionFixes) = invocation.options.replacingOutputReferences(move.moved)
                let (condition, conditionFixes) = invocation.condition.replacingOutputReferences(
                    move.moved, at: invocation.conditionLocation)
                invocation.options = options
                invocation.condition = condition
                warnings[index].referenceFixes += optionFixes + conditionFixes
            }
            if let split = splits.first(where: { $0.applies(to: invocation) }) {
                let done = split.split(invocation, ids: &ids, diagnostics)
                moves.append(done)
                warnings.append((done, invocation.location, []))
                steps += [done.old, done.new]
            } else {
                steps.append(
                    migrations.first { $0.applies(to: invocation) }.map { $0.migrate(invocation, diagnostics) }
                        ?? invocation)
            }
        }
        for (position, _) in steps.enumerated() { steps[position].index = position + 1 }
        for (split, location, referenceFixes) in warnings {
            let fixes = split.fixes.isEmpty ? [] : split.fixes + referenceFixes
            let references =
                referenceFixes.isEmpty
                ? ""
                : " (and later steps' references to its outputs: ${steps.\(split.oldId).…} is ${steps.\(split.newId).…})"
            diagnostics.warning(
                "`\(split.old.kind):` with `\(split.new.kind):` is now two steps: \(split.shown)\(references)",
                at: location, step: split.new.kind,
                hint: fixes.isEmpty
                    ? "write the new step after this one by hand; the old form stops working in a later release"
                    : "`pushline validate --fix \(location.file)` rewrites it; the old form stops working in a later release",
                fixes: fixes)
        }
        migrated.steps = steps
        return migrated
    }

    private func kindFirst(_ invocation: StepInvocation) -> StepInvocation {
        guard kind(for: invocation.kind) == nil,
            let index = invocation.strays.firstIndex(where: { kind(for: $0.key) != nil })
        else {
            return invocation
        }
        var swapped = invocation
        let entry = invocation.strays[index]
        swapped.strays[index] = ConfigEntry(
            key: invocation.kind, keyLocation: invocation.location, value: invocation.options)
        swapped.kind = entry.key
        swapped.location = entry.keyLocation
        swapped.options = entry.value
        return swapped
    }

    /// An error for each key beside the kind that a step entry does not have; an option of the step (`hub:` written
    /// beside `send:` rather than under it) says to indent it.
    private func reportStrays(_ invocation: StepInvocation, of kind: StepKind?, _ diagnostics: DiagnosticCollector) {
        for stray in invocation.strays {
            if let kind, kind.options.contains(where: { $0.key == stray.key }) {
                diagnostics.error(
                    "'\(stray.key)' is an option of '\(invocation.kind)' but is written beside it",
                    at: stray.keyLocation,
                    hint: "indent it under `\(invocation.kind):`, with the step's other options")
            } else {
                let known = StepEntryKeys.keys + ids
                diagnostics.error(
                    "unknown key '\(stray.key)' in a step entry\(Suggestion.didYouMean(stray.key, in: known))",
                    at: stray.keyLocation,
                    hint:
                        "a step entry holds one key naming its kind (`\(invocation.kind):`) and may have `id:`, `name:` and `when:`"
                )
            }
        }
    }
}
