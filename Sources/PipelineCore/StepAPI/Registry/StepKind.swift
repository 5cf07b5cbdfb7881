/// A kind of step a registry knows: the key that selects it, what it takes and hands on, and how to build one from
/// its options. A Swift step type gives one (`StepKind(SendStep.self)`); a process plugin's comes from its answer to
/// the handshake, so both are checked, documented, run and reported the same way.
public struct StepKind: Sendable {
    /// The YAML key that selects the step, e.g. `send`.
    public let id: String
    /// One line saying what the step does.
    public let summary: String
    /// Every key the step accepts.
    public let options: [OptionSpec]
    /// The values it hands to later steps: its own, then `status` and `error`, which every step has.
    public let outputs: [OutputSpec]
    /// YAML examples, as they appear under `steps:`.
    public let examples: [String]
    /// Where the kind comes from, for messages and docs: nil for a step built into this `pushline`, else the plugin's
    /// command as written.
    public let origin: String?
    /// Spellings of other steps an earlier release accepted that are now this kind.
    public let formerSpellings: [StepMigration]
    /// Keys of other steps an earlier release accepted that did this kind's work.
    public let formerSplits: [StepSplit]
    /// Whether the step can work once per row: it conforms to `ForEachStep`, and the engine gives it `for-each`.
    public let takesRows: Bool
    private let make: @Sendable (OptionReader, BuildContext, RowSource?) -> (any RunnableStep)?
    private let prepare: (@Sendable (OptionReader, BuildContext, RowSource?) -> PendingStep)?

    /// The kind of a Swift step type.
    public init<S: Step>(_ type: S.Type) {
        id = S.id
        summary = S.summary
        outputs = Self.withCommon(S.outputs)
        examples = S.examples
        origin = nil
        formerSpellings = S.formerSpellings
        formerSplits = S.formerSplits
        if let rowType = S.self as? any ForEachStep.Type {
            takesRows = true
            options = Self.withForEach(S.options)
            (make, prepare) = Self.builders(of: rowType)
        } else {
            takesRows = false
            options = S.options
            make = { reader, context, _ in S.build(reader, in: context) }
            if let declared = S.self as? any DeclaredStep.Type {
                prepare = { reader, context, _ in Self.pending(of: declared, reader, context) }
            } else {
                prepare = nil
            }
        }
    }

    private static func pending<D: DeclaredStep>(of type: D.Type, _ reader: OptionReader, _ context: BuildContext)
        -> PendingStep
    {
        D.pending(reader, in: context, rows: nil) { options, _, reader, context in
            D.build(options, reporting: reader, in: context)
        }
    }

    private static func builders<R: ForEachStep>(of type: R.Type) -> (
        @Sendable (OptionReader, BuildContext, RowSource?) -> (any RunnableStep)?,
        @Sendable (OptionReader, BuildContext, RowSource?) -> PendingStep
    ) {
        (
            { reader, context, rows in R.build(reader, rows: rows, in: context) },
            { reader, context, rows in
                R.pending(reader, in: context, rows: rows) { R.built($0, rows: $1, reporting: $2, in: $3) }
            }
        )
    }

    /// `options` with `for-each`, which the engine reads for a step that works once per row, before the first key about
    /// rows (one that applies only with it, or `bad-rows`), so the keys about rows read in order; else last.
    private static func withForEach(_ options: [OptionSpec]) -> [OptionSpec] {
        var options = options.filter { $0.key != BatchOptions.forEach.key }
        let position =
            options.firstIndex { $0.requirement?.key == BatchOptions.forEach.key || $0.key == BatchOptions.badRows.key }
            ?? options.endIndex
        options.insert(BatchOptions.forEach.spec, at: position)
        return options
    }

    /// A kind described at run time (a process plugin): `build` decodes a reader of `options` into a step, reporting
    /// every problem through the reader's diagnostics, and returns nil when it cannot.
    public init(
        id: String, summary: String, options: [OptionSpec], outputs: [OutputSpec], examples: [String] = [],
        origin: String,
        build: @escaping @Sendable (OptionReader, BuildContext) -> (any RunnableStep)?
    ) {
        self.id = id
        self.summary = summary
        self.options = options
        self.outputs = Self.withCommon(outputs)
        self.examples = examples
        self.origin = origin
        formerSpellings = []
        formerSplits = []
        takesRows = false
        make = { reader, context, _ in build(reader, context) }
        prepare = nil
    }

    /// The outputs every step has, whatever became of it: how it ended and why it failed (the engine hands them on).
    package static let commonOutputs = [
        OutputSpec(
            "status", .string,
            "how the step ended: succeeded, partial, failed, rejected (its input refused, nothing sent), skipped, or interrupted"
        ),
        OutputSpec("error", .string, "why it failed or was rejected, as the report says it; empty otherwise"),
    ]

    /// The outputs the kind declares itself: `outputs` without the common ones.
    package var ownOutputs: [OutputSpec] {
        outputs.filter { output in !Self.commonOutputs.contains { $0.name == output.name } }
    }

    /// `outputs` and the ones every step has (`status`, `error`), unless the kind declares them itself.
    private static func withCommon(_ outputs: [OutputSpec]) -> [OutputSpec] {
        outputs + commonOutputs.filter { common in !outputs.contains { $0.name == common.name } }
    }

    /// A reader of `node` against this kind's keys.
    package func reader(_ node: ConfigNode, diagnostics: DiagnosticCollector) -> OptionReader {
        OptionReader(node, specs: options, step: id, what: "\(id) options", diagnostics: diagnostics)
    }

    /// Decodes and validates `options` into a step, to work once per row of `rows` when given (the engine opened them
    /// from `for-each`); nil when it cannot be built (the reader's diagnostics say why).
    package func build(_ options: OptionReader, rows: RowSource? = nil, in context: BuildContext) -> (any RunnableStep)?
    {
        make(options, context, rows)
    }

    /// Reads `options`, some of whose keys hold earlier steps' outputs, once, reporting what does not depend on their
    /// values; the step is built from them when it runs. A step that declares its options reads only the pending keys
    /// then; one that does not (a plugin's, whose options are JSON it is sent) reads its options whole with the values in.
    ///
    /// `rows` are the ones `for-each` names when they are known now, or stand-ins (rows a reference will hand on).
    package func pending(_ options: OptionReader, rows: RowSource? = nil, in context: BuildContext) -> PendingStep {
        if let prepare { return prepare(options, context, rows) }
        _ = make(options, context, nil)
        let keys = options.entries.filter { !$0.value.deferredScalars.isEmpty }.map(\.key)
        let (written, node, make, id, specs) = (options.entries, options.node, make, id, self.options)
        return PendingStep(keys: keys) { values, _, diagnostics throws(StepFailure) in
            let entries = try PendingStep.resolving(Set(keys), of: written, with: values)
            let reader = OptionReader(
                entries: entries, node: ConfigNode(.mapping(entries), at: node.location), step: id,
                diagnostics: diagnostics, specs: specs, context: nil)
            let before = diagnostics.errorCount
            let step = make(reader, context, nil)
            return diagnostics.errorCount == before ? step : nil
        }
    }
}
