import PipelineCore

extension SendStep {
    /// Checks the options against each other and the pipeline; see `SendOptionsDecoder`.
    package static func build(_ options: SendOptions, reporting reader: OptionReader, in context: BuildContext)
        -> SendStep?
    {
        SendOptionsDecoder(values: options, options: reader, context: context).decode()
    }

    /// A send of one request per row of `rows`, whose values take the row's columns; see `SendOptionsDecoder`.
    package static func build(
        _ options: SendOptions, rows: RowSource, reporting reader: OptionReader, in context: BuildContext
    ) -> SendStep? {
        SendOptionsDecoder(values: options, options: reader, context: context).decode(rows: rows)
    }
}
