import PipelineCore

extension StepKind {
    /// A step of this kind built from `options` alone, as a pipeline's step without references to other steps is:
    /// its `for-each` rows opened by the engine, then the step built with them. For tools and tests that build one step.
    package func build(_ options: ConfigNode, in context: BuildContext, diagnostics: DiagnosticCollector) -> (
        any RunnableStep
    )? {
        let reader = reader(options, diagnostics: diagnostics)
        let rows = ForEachRows.read(options, of: self, in: context, declared: { _ in nil }, diagnostics)
        let step = build(reader, rows: rows.source, in: context)
        if case .unusable = rows { return nil }
        return step
    }
}
