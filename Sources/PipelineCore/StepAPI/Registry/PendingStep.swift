/// A step whose options hold values earlier steps hand on (`${steps.ID.OUTPUT}`): its options were read once, when
/// the pipeline was built, and the keys holding references wait for their values. When the step runs, only those
/// keys are read, from their values, and the step is built from every value read.
///
/// Everything that does not depend on the values was checked at build time; a check that does runs on the value,
/// at the reference's `file:line:column`.
package struct PendingStep: Sendable {
    /// The keys whose values hold references.
    package let keys: [String]
    private let finish:
        @Sendable (any ReferenceValues, RowSource?, DiagnosticCollector) throws(StepFailure) -> (any RunnableStep)?

    /// A step whose `keys` wait for their values; `finish` reads them with the values in and builds the step, with the
    /// rows of its `for-each` when it has one.
    package init(
        keys: [String],
        finish:
            @escaping @Sendable (any ReferenceValues, RowSource?, DiagnosticCollector) throws(StepFailure) -> (
                any RunnableStep
            )?
    ) {
        self.keys = keys
        self.finish = finish
    }

    /// The step, with `values` in its pending keys and working through `rows` (opened by the engine from its
    /// `for-each`, nil without one); nil when it cannot be built (`diagnostics` say why). Throws when a value is
    /// missing or does not fit where its reference is.
    package func build(with values: any ReferenceValues, rows: RowSource? = nil, diagnostics: DiagnosticCollector)
        throws(StepFailure)
        -> (any RunnableStep)?
    {
        try finish(values, rows, diagnostics)
    }

    /// `entries` with the values of `keys` resolved by `values`.
    static func resolving(_ keys: Set<String>, of entries: [ConfigEntry], with values: any ReferenceValues)
        throws(StepFailure) -> [ConfigEntry]
    {
        var entries = entries
        for index in entries.indices where keys.contains(entries[index].key) {
            let entry = entries[index]
            entries[index] = ConfigEntry(
                key: entry.key, keyLocation: entry.keyLocation, value: try values.resolve(entry.value))
        }
        return entries
    }
}

/// The values references stand for: puts them into the value of one key, as written (a list as a list, rows as the
/// rows handed on, anything else as text where the reference was).
package protocol ReferenceValues: Sendable {
    /// `node` with every reference in it replaced by its value; throws when a value is missing or does not fit.
    func resolve(_ node: ConfigNode) throws(StepFailure) -> ConfigNode
}

extension DeclaredStep {
    /// Reads the options once, reporting every problem that does not depend on the references' values, and keeps what
    /// it read for the step to be built when the values are known.
    ///
    /// `make` builds the step from its options and rows (`rows` now, for the report; the ones the engine opens when it
    /// runs, then).
    package static func pending(
        _ reader: OptionReader, in context: BuildContext, rows: RowSource?,
        make: @escaping @Sendable (Options, RowSource?, OptionReader, BuildContext) -> Self?
    ) -> PendingStep {
        var reader = reader
        reader.context = context
        let keys = reader.entries.filter { !$0.value.deferredScalars.isEmpty }.map(\.key)
        let found = Options.found(in: reader, keys: nil)
        // Built once now to report the rest (it cannot run: its pending keys are still empty).
        let options = Options(found: found)
        options.runChecks(reader)
        _ = make(options, rows, reader, context)
        let pending = Set(keys)
        let (written, node, step, specs) = (reader.entries, reader.node, reader.step, reader.specs)
        return PendingStep(keys: keys) { values, rows, diagnostics throws(StepFailure) in
            let entries = try PendingStep.resolving(pending, of: written, with: values)
            let resolved = OptionReader(
                entries: entries, node: ConfigNode(.mapping(entries), at: node.location), step: step,
                diagnostics: diagnostics, specs: specs, context: context)
            let before = diagnostics.errorCount
            // Only the pending keys are read again; every other value is the one read when the pipeline was built.
            let options = Options(found: found.merging(Options.found(in: resolved, keys: pending)) { _, new in new })
            options.runChecks(resolved)
            let step = make(options, rows, resolved, context)
            return diagnostics.errorCount == before ? step : nil
        }
    }
}
