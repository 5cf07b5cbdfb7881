/// A step whose keys are one `DeclaredOptions` type: its key list is derived from the type, and `build` is
/// given the values already read and checked against their declarations.
public protocol DeclaredStep: Step {
    /// The step's keys.
    associatedtype Options: DeclaredOptions
    /// The values the step hands to later steps.
    associatedtype Outputs: DeclaredOutputs = NoOutputs

    /// Builds the step from its values, reporting what depends on the pipeline (a hub that is not declared, a
    /// template of another platform) through `reader`, whose `error(_:at:)` places a problem at a value's node
    /// (`options.$audience.node`). Returns nil when the step cannot be built.
    static func build(_ options: Options, reporting reader: OptionReader, in context: BuildContext) -> Self?
}

extension DeclaredStep {
    /// The keys of `Options`.
    public static var options: [OptionSpec] { Options.specs }

    /// The outputs of `Outputs`.
    public static var outputs: [OutputSpec] { Outputs.outputSpecs }

    /// Reads `Options` (names of hubs and templates resolved against the pipeline), then builds from them; a step
    /// any of whose options was refused is not built, though `build` still runs to report everything at once.
    public static func build(_ reader: OptionReader, in context: BuildContext) -> Self? {
        var reader = reader
        reader.context = context
        let errorsBefore = reader.diagnostics.errorCount
        let step = build(Options(reading: reader), reporting: reader, in: context)
        return reader.diagnostics.errorCount == errorsBefore ? step : nil
    }
}

/// The outputs of a step that hands nothing on.
public struct NoOutputs: DeclaredOutputs {
    /// Nothing.
    public init() {}
}
