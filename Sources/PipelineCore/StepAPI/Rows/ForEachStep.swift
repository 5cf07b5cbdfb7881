/// A step that can work once per row: `send` and `register` with `for-each`.
///
/// The step does not declare `for-each`: conforming gives it the key. The engine reads the key, opens what it names
/// (a `.csv`, `.jsonl` or `.json` file, or an earlier step's rows) with `file:line:column` diagnostics, and builds the
/// step with the rows: a `RowSource` that carries their columns when they are known before the run (a CSV header, a
/// query's prepared columns, a plugin's declared ones). Without `for-each` the step is built as any declared step
/// is, by `build(_:reporting:in:)`.
public protocol ForEachStep: DeclaredStep {
    /// Builds the step to work once per row of `rows`, reporting problems with its own options through `reader`
    /// (the rows were opened and reported on already). Returns nil when the step cannot be built.
    ///
    /// Call `rows.checkColumns(_:reporting:)` with the columns the step reads (its `columnsRead`), built or not, so
    /// a column the rows lack is reported at `for-each` beside the step's other problems.
    static func build(_ options: Options, rows: RowSource, reporting reader: OptionReader, in context: BuildContext)
        -> Self?
}

extension ForEachStep {
    /// Reads `Options`, then builds the step with `rows`, or as any declared step without them.
    static func build(_ reader: OptionReader, rows: RowSource?, in context: BuildContext) -> Self? {
        guard let rows else { return build(reader, in: context) }
        var reader = reader
        reader.context = context
        let errorsBefore = reader.diagnostics.errorCount
        let step = build(Options(reading: reader), rows: rows, reporting: reader, in: context)
        return reader.diagnostics.errorCount == errorsBefore ? step : nil
    }

    /// Builds from options read already: with `rows`, or as any declared step without them.
    static func built(_ options: Options, rows: RowSource?, reporting reader: OptionReader, in context: BuildContext)
        -> Self?
    {
        guard let rows else { return build(options, reporting: reader, in: context) }
        return build(options, rows: rows, reporting: reader, in: context)
    }
}
