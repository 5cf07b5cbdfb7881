/// The step types a pipeline may use, keyed by id. A value, built once by the CLI and passed down.
public struct StepRegistry: Sendable {
    /// The registered types, in registration order.
    public let types: [any Step.Type]

    /// Creates a registry, rejecting two types that claim the same id.
    public init(_ types: [any Step.Type]) throws(StepRegistryError) {
        var seen: Set<String> = []
        for type in types where !seen.insert(type.id).inserted {
            throw StepRegistryError(duplicateID: type.id)
        }
        self.types = types
    }

    /// The ids of every registered step.
    public var ids: [String] { types.map { $0.id } }

    /// The type registered under `id`.
    public func type(for id: String) -> (any Step.Type)? {
        types.first { $0.id == id }
    }

    /// Decodes and validates every step of `document`, reporting all problems before anything runs.
    /// Returns nil when any error was reported (including errors reported earlier by the loader).
    public func build(
        _ document: PipelineDocument, diagnostics: DiagnosticCollector, loadDataFile: @escaping DataFileLoader
    ) -> Pipeline? {
        let context = BuildContext(document: document, loadDataFile: loadDataFile)
        var built: [BuiltStep] = []
        for var invocation in document.steps {
            invocation = kindFirst(invocation)
            guard let type = type(for: invocation.kind) else {
                diagnostics.error(
                    "unknown step '\(invocation.kind)'\(Suggestion.didYouMean(invocation.kind, in: ids))",
                    at: invocation.location, hint: "available steps: \(ids.joined(separator: ", "))")
                reportStrays(invocation, of: nil, diagnostics)
                continue
            }
            reportStrays(invocation, of: type, diagnostics)
            checkCondition(of: invocation, steps: document.steps, diagnostics)
            if let step = build(type, invocation, context, steps: document.steps, diagnostics) { built.append(step) }
        }
        guard !diagnostics.hasErrors else { return nil }
        return Pipeline(document: document, steps: built)
    }

    // Opens the existential so the step type's own `build` is called.
    private func build<S: Step>(
        _ type: S.Type, _ invocation: StepInvocation, _ context: BuildContext, steps: [StepInvocation], _ diagnostics: DiagnosticCollector
    ) -> BuiltStep? {
        let errorsBefore = diagnostics.diagnostics.filter { $0.severity == .error }.count
        let reader = OptionReader(
            invocation.options, specs: S.options, step: S.id, what: "\(S.id) options", diagnostics: diagnostics)
        let built = S.build(reader, in: context)
        // Options that use earlier steps' outputs are checked now, and the step is built when it runs.
        if !invocation.options.deferredScalars.isEmpty {
            let samples = checkReferences(in: invocation, of: type, steps: steps, diagnostics)
            return BuiltStep(index: invocation.index, id: S.id, location: invocation.location, step: Self.deferred(type, invocation, context, samples: samples),
                             declaredId: invocation.id, name: invocation.name, condition: invocation.condition)
        }
        guard let step = built else {
            // A step that declines to build must never vanish silently. Steps report their own problems;
            // this catches the case where the cause lies elsewhere (an unresolved reference is the one
            // legitimate silent cause: it was already reported, as a warning for `validate`).
            let errorsAfter = diagnostics.diagnostics.filter { $0.severity == .error }.count
            if errorsAfter == errorsBefore, !invocation.options.containsUnresolved {
                diagnostics.error("step '\(S.id)' cannot be built from these options", at: invocation.location,
                                  step: S.id, hint: "check the declarations it refers to; they have errors or are incomplete")
            }
            return nil
        }
        return BuiltStep(index: invocation.index, id: S.id, location: invocation.location, step: step, declaredId: invocation.id,
                         name: invocation.name, condition: invocation.condition)
    }

    /// The keys a step entry may have beside its kind.
    public static let entryKeys = ["id", "name", "when"]

    /// `invocation` with a registered kind first when its first key is not one and a later key is (`- nmae: x` written
    /// above `send:`), so the error falls on the stray key rather than on the step.
    private func kindFirst(_ invocation: StepInvocation) -> StepInvocation {
        guard type(for: invocation.kind) == nil, let index = invocation.strays.firstIndex(where: { type(for: $0.key) != nil }) else {
            return invocation
        }
        var swapped = invocation
        let kind = invocation.strays[index]
        swapped.strays[index] = ConfigEntry(key: invocation.kind, keyLocation: invocation.location, value: invocation.options)
        swapped.kind = kind.key
        swapped.location = kind.keyLocation
        swapped.options = kind.value
        return swapped
    }

    /// An error for each key beside the kind that a step entry does not have; an option of the step (`hub:` written
    /// beside `send:` rather than under it) says to indent it.
    private func reportStrays(_ invocation: StepInvocation, of type: (any Step.Type)?, _ diagnostics: DiagnosticCollector) {
        for stray in invocation.strays {
            if let type, type.options.contains(where: { $0.key == stray.key }) {
                diagnostics.error("'\(stray.key)' is an option of '\(invocation.kind)' but is written beside it", at: stray.keyLocation,
                                  hint: "indent it under `\(invocation.kind):`, with the step's other options")
            } else {
                let known = Self.entryKeys + ids
                diagnostics.error("unknown key '\(stray.key)' in a step entry\(Suggestion.didYouMean(stray.key, in: known))",
                                  at: stray.keyLocation,
                                  hint: "a step entry holds one key naming its kind (`\(invocation.kind):`) and may have `id:`, `name:` and `when:`")
            }
        }
    }
}
