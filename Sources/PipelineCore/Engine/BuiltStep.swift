/// One decoded step with where it came from.
public struct BuiltStep: Sendable {
    /// 1-based position in `steps:`.
    public let index: Int
    /// The step kind.
    public let id: String
    /// Where the step is written.
    public let location: SourceLocation
    /// The step value.
    public let step: any Step
}
