import PipelineCore

/// The keys a step entry may have beside the one naming its kind, each declared once: the loader reads them
/// through this declaration, and the key list, the unknown-key hints and the JSON Schema come from it.
///
/// Each is read as written (an empty value is refused, not taken as absent; `when:` may hold references to earlier
/// steps' outputs), and checked by the loader, which knows the other steps' ids and the parameters.
package struct StepEntryKeys: DeclaredOptions {
    /// `id`.
    @Key(
        OptionKey.node(
            OptionSpec("id", .identifier, "the step's id, unique in the file: later steps refer to it by this")
        ).asWritten())
    package var id: ConfigNode?
    /// `name`.
    @Key(
        OptionKey.node(
            OptionSpec(
                "name", .line, "what progress lines, reports and the run journal call the step instead of its kind")
        )
        .asWritten())
    package var name: ConfigNode?
    /// `when`.
    @Key(
        OptionKey.node(
            OptionSpec(
                "when", .wordOrExpression(StepCondition.keywords),
                "when the step runs: success (the default: every earlier step succeeded or was skipped), failure (an earlier step failed), "
                    + "always, or an expression over ${steps.ID.OUTPUT}, ${param:NAME}, ${env:NAME}, success, failure and dry-run with "
                    + "== != < <= > >= && || ! and parentheses")
        ).asWritten())
    package var when: ConfigNode?

    package init() {}

    /// The keys, as written.
    package static var keys: [String] { specs.map(\.key) }
}
