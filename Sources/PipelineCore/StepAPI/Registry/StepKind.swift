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
    private let make: @Sendable (OptionReader, BuildContext) -> (any RunnableStep)?
    private let prepare: (@Sendable (OptionReader, BuildContext) -> PendingStep)?

    /// The kind of a Swift step type.
    public init<S: Step>(_ type: S.Type) {
        id = S.id
        summary = S.summary
        options = S.options
        outputs = Self.withCommon(S.outputs)
        examples = S.examples
        origin = nil
        formerSpellings = S.formerSpellings
        formerSplits = S.formerSplits
        make = { reader, context in S.build(reader, in: context) }
        if let declared = S.self as? any DeclaredStep.Type {
            prepare = { reader, context in Self.pending(of: declared, reader, context) }
        } else {
            prepare = nil
        }
    }

    private static func pending<D: DeclaredStep>(of type: D.Type, _ reader: OptionReader, _ context: BuildContext) -> PendingStep {
        D.pending(reader, in: context)
    }

    /// A kind described at run time (a process plugin): `build` decodes a reader of `options` into a step, reporting
    /// every problem through the reader's diagnostics, and returns nil when it cannot.
    public init(id: String, summary: String, options: [OptionSpec], outputs: [OutputSpec], examples: [String] = [], origin: String,
                build: @escaping @Sendable (OptionReader, BuildContext) -> (any RunnableStep)?) {
        self.id = id
        self.summary = summary
        self.options = options
        self.outputs = Self.withCommon(outputs)
        self.examples = examples
        self.origin = origin
        formerSpellings = []
        formerSplits = []
        make = build
        prepare = nil
    }

    /// The outputs every step has, whatever became of it: how it ended and why it failed (the engine hands them on).
    package static let commonOutputs = [
        OutputSpec("status", .string, "how the step ended: succeeded, partial, failed, rejected (its input refused, nothing sent), skipped, or interrupted"),
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

    /// Decodes and validates `options` into a step; nil when it cannot be built (the reader's diagnostics say why).
    package func build(_ options: OptionReader, in context: BuildContext) -> (any RunnableStep)? {
        make(options, context)
    }

    /// Reads `options`, some of whose keys hold earlier steps' outputs, once, reporting what does not depend on their
    /// values; the step is built from them when it runs. A step that declares its options reads only the pending keys
    /// then; one that does not (a plugin's, whose options are JSON it is sent) reads its options whole with the values in.
    package func pending(_ options: OptionReader, in context: BuildContext) -> PendingStep {
        if let prepare { return prepare(options, context) }
        _ = make(options, context)
        let keys = options.entries.filter { !$0.value.deferredScalars.isEmpty }.map(\.key)
        let (written, node, make, id, specs) = (options.entries, options.node, make, id, self.options)
        return PendingStep(keys: keys) { values, diagnostics throws(StepFailure) in
            let entries = try PendingStep.resolving(Set(keys), of: written, with: values)
            let reader = OptionReader(entries: entries, node: ConfigNode(.mapping(entries), at: node.location), step: id,
                                      diagnostics: diagnostics, specs: specs, context: nil)
            let before = diagnostics.errorCount
            let step = make(reader, context)
            return diagnostics.errorCount == before ? step : nil
        }
    }
}
