/// What a `for-each` reads: a file written in the pipeline, or the rows an earlier step hands on.
///
/// The engine resolves `for-each: ${steps.users.rows}` to `.handed` before the step is built with it, so a step
/// never recognises an earlier step's rows by how they were written.
package enum RowInput: Sendable, Equatable {
    /// A `.csv`, `.jsonl` or `.json` file, as written (relative to the pipeline unless given by `${env:…}`).
    case file(String)
    /// An earlier step's rows.
    case handed(HandedRows)
}

/// Rows an earlier step hands to a later step's `for-each`: where this process reads them, which output they are and
/// their columns.
package struct HandedRows: Sendable, Equatable {
    /// The output they are (`${steps.users.rows}`), which messages name.
    package let reference: OutputReference
    /// A JSON Lines file of the rows (the spool copied out for this step, one object per line); nil while the
    /// pipeline is built, before any rows exist.
    package let path: String?
    /// The columns, as the producing step gave them; empty when not known.
    package let columns: [String]

    /// Rows of `reference`, read from `path`.
    package init(reference: OutputReference, path: String?, columns: [String]) {
        self.reference = reference
        self.path = path
        self.columns = columns
    }
}
