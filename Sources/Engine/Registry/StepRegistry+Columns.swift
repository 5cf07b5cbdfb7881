import PipelineCore

/// The build-time check that a `for-each` over an earlier step's rows reads only columns those rows have, when the
/// earlier step knows them before the run (a SQLite query prepared, a plugin's declared columns), as a CSV's header
/// is checked.
extension StepRegistry {
    /// Reports every column `consumer` reads that the rows its `for-each` names lack, at the `for-each` value, with
    /// "did you mean" and the columns there are. Silent when the rows' columns are not known before the run.
    func checkColumns(of consumer: BuiltStep, _ invocation: StepInvocation, earlier: [BuiltStep], _ diagnostics: DiagnosticCollector) {
        guard let node = invocation.options.entries?.first(where: { $0.key == BatchOptions.forEach.key })?.value,
            let scalar = node.scalar, scalar.deferred?.count == 1, let reference = scalar.outputReferences.first,
            let producer = earlier.first(where: { $0.declaredId == reference.step }),
            let columns = producer.step.columns(of: reference.output)
        else { return }
        let known = Set(columns.map { $0.lowercased() })
        var reported: Set<String> = []
        for column in consumer.step.columnsRead where !known.contains(column.lowercased()) && reported.insert(column.lowercased()).inserted {
            diagnostics.error("the step reads column '\(column)', which the rows of step '\(reference.step)' (\(producer.id)) do not have"
                              + Suggestion.didYouMean(column, in: columns),
                              at: node.location, step: consumer.id, hint: "its columns: \(columns.joined(separator: ", "))")
        }
    }
}
