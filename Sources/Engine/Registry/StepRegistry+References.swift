import PipelineCore

/// Build-time checks of `${steps.ID.OUTPUT}` references, and the deferred step that resolves them at run time.
extension StepRegistry {
    /// Reports every reference in `invocation`'s options that cannot work — a step id no step has or that runs
    /// later, an output the step does not have, a list where one value goes, an index into a value — at the
    /// scalar that holds it. Returns the sample outputs that stand in for the references when the step is built
    /// ahead of the run.
    func checkReferences(
        in invocation: StepInvocation, of kind: StepKind, steps: [StepInvocation],
        _ diagnostics: DiagnosticCollector
    ) -> EarlierOutputs {
        var samples = EarlierOutputs()
        var sampleValues: [String: StepOutputs] = [:]
        for entry in invocation.options.entries ?? [] {
            guard let spec = kind.options.first(where: { $0.key == entry.key }) else { continue }
            for (scalar, node) in entry.value.deferredScalars {
                // A whole list fits only a key that takes a list, written as the key's whole value.
                let listFits =
                    node.location == entry.value.location && scalar.deferred?.count == 1 && Self.takesList(spec.type)
                for reference in scalar.outputReferences {
                    guard
                        let output = producedOutput(
                            reference, for: invocation, steps: steps, at: node.location, step: kind.id, diagnostics)
                    else { continue }
                    switch (output.type, reference.index) {
                    case (.rows, _)
                    where
                        !(node.location == entry.value.location && scalar.deferred?.count == 1
                        && entry.key == BatchOptions.forEach.key):
                        diagnostics.error(
                            "\(reference.written) is rows, and only a `for-each` takes rows (written as its whole value)",
                            at: node.location, step: kind.id,
                            hint:
                                "write `for-each: \(OutputReference(step: reference.step, output: reference.output).written)`; for how many rows there are, a query has `count`"
                        )
                    case (.list, nil) where !listFits:
                        diagnostics.error(
                            "\(reference.written) is a list, and '\(entry.key)' takes one value here",
                            at: node.location, step: kind.id,
                            hint:
                                "pick one item, e.g. \(OutputReference(step: reference.step, output: reference.output, index: 0).written)"
                        )
                    case (.integer, .some), (.string, .some), (.boolean, .some), (.rows, .some):
                        diagnostics.error(
                            "'\(reference.output)' of step '\(reference.step)' is \(output.type == .rows ? "" : output.type == .integer ? "an " : "a ")\(output.type.documentation), not a list; remove the index",
                            at: node.location, step: kind.id,
                            hint: "write \(OutputReference(step: reference.step, output: reference.output).written)")
                    default:
                        let count = max(1, (reference.index ?? 0) + 1)
                        let sample: OutputValue =
                            switch output.type {
                            case .integer: .integer(1)
                            case .string: .string("sample")
                            case .boolean: .boolean(true)
                            case .list: .list(Array(repeating: "sample", count: count), total: count)
                            case .rows: .rows(SpooledRows(spool: nil, columns: [], count: 0, digest: "", readAt: 0))
                            }
                        if case .list(let kept, _)? = sampleValues[reference.step]?[reference.output],
                            kept.count >= count
                        {
                            continue
                        }
                        sampleValues[reference.step, default: [:]][reference.output] = sample
                    }
                }
            }
        }
        for (id, outputs) in sampleValues { samples.record(outputs, of: id) }
        return samples
    }

    /// The output `reference` names, or nil after reporting why it cannot: no step has the id, the step runs
    /// later, or it has no such output. `key` is the key whose value names the step by its id alone (`of: digest`);
    /// nil for a reference.
    func producedOutput(
        _ reference: OutputReference, for invocation: StepInvocation, steps: [StepInvocation],
        at location: SourceLocation,
        step: String, key: String? = nil, _ diagnostics: DiagnosticCollector
    ) -> OutputSpec? {
        let ids = steps.compactMap(\.id)
        let written = key.map { "`\($0): \(reference.step)`" } ?? reference.written
        guard let producer = steps.first(where: { $0.id == reference.step }) else {
            diagnostics.error(
                "no step has the id '\(reference.step)'\(key == nil ? " (in \(written))" : "")\(Suggestion.didYouMean(reference.step, in: ids))",
                at: location, step: step,
                hint: ids.isEmpty
                    ? "give the step whose output this is an `id:`" : "step ids: \(ids.joined(separator: ", "))")
            return nil
        }
        guard producer.index < invocation.index else {
            diagnostics.error(
                "\(written) names step '\(reference.step)', which runs \(producer.index == invocation.index ? "as this step" : "after this one (line \(producer.location.line))")",
                at: location, step: step, hint: "a step can use only the outputs of the steps before it")
            return nil
        }
        guard let producerKind = kind(for: producer.kind) else { return nil }
        guard let output = producerKind.outputs.first(where: { $0.name == reference.output }) else {
            let names = producerKind.outputs.map(\.name)
            if let key {
                diagnostics.error(
                    "step '\(reference.step)' (\(producer.kind)) hands on no '\(reference.output)', which `\(key):` reads",
                    at: location, step: step,
                    hint: "`\(key):` names a step that hands on '\(reference.output)', such as a `send`")
                return nil
            }
            diagnostics.error(
                "step '\(reference.step)' (\(producer.kind)) has no output '\(reference.output)'\(Suggestion.didYouMean(reference.output, in: names))",
                at: location, step: step,
                hint: names.isEmpty
                    ? "\(producer.kind) hands nothing on" : "its outputs: \(names.joined(separator: ", "))")
            return nil
        }
        return output
    }

    /// Reports every key declared to name an earlier step (`of: digest`) whose value names no step, a later one, or one
    /// that does not hand on what the key needs, at the value.
    func checkStepNames(
        in invocation: StepInvocation, of kind: StepKind, steps: [StepInvocation], _ diagnostics: DiagnosticCollector
    ) {
        for entry in invocation.options.entries ?? [] {
            guard let spec = kind.options.first(where: { $0.key == entry.key }),
                case .earlierStep(let output) = spec.type,
                let scalar = entry.value.scalar, !scalar.isUnresolved, !scalar.text.isEmpty,
                scalar.text.allSatisfy(OutputReference.isIdCharacter)
            else { continue }
            _ = producedOutput(
                OutputReference(step: scalar.text, output: output), for: invocation, steps: steps,
                at: entry.value.location,
                step: kind.id, key: entry.key, diagnostics)
        }
    }

    /// True for a key whose value may be a list.
    static func takesList(_ type: OptionSpec.ValueType) -> Bool {
        switch type {
        case .stringList, .list: true
        case .anyOf(let types): types.contains(where: takesList)
        default: false
        }
    }

    /// The step's options read once, the keys holding references waiting for their values, with a copy built with
    /// sample values in those keys (for what is asked of it before it runs), and its `for-each` rows, opened or to be
    /// opened when it runs.
    static func deferred(
        _ kind: StepKind, _ reader: OptionReader, _ context: BuildContext, rows: ForEachRows, samples: EarlierOutputs
    ) -> DeferredStep {
        let pending = kind.pending(reader, rows: rows.source, in: context)
        let sample = try? pending.build(
            with: OutputSubstitution(outputs: samples, consumer: kind.id), rows: rows.source,
            diagnostics: DiagnosticCollector())
        return DeferredStep(
            kind: kind, pending: pending, rows: rows, context: context,
            outputReferences: reader.node.deferredScalars.flatMap { $0.0.outputReferences }, sample: sample ?? nil)
    }
}
