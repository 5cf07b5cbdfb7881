/// One decoded step with where it came from.
public struct BuiltStep: Sendable {
    /// 1-based position in `steps:`.
    public let index: Int
    /// The step kind.
    public let id: String
    /// Where the step is written.
    public let location: SourceLocation
    /// What was built.
    public let step: any RunnableStep
    /// The outputs its kind declares (what the report shows of its result).
    public let outputs: [OutputSpec]
    /// The entry's `id:`, when it has one.
    public var declaredId: String?
    /// The entry's `name:`, when it has one.
    public var name: String?
    /// When the step runs.
    public var condition: StepCondition

    /// Creates a built step of `kind`.
    public init(index: Int, kind: StepKind, location: SourceLocation, step: any RunnableStep, declaredId: String? = nil, name: String? = nil,
                condition: StepCondition = .success) {
        self.index = index
        id = kind.id
        outputs = kind.outputs
        self.location = location
        self.step = step
        self.declaredId = declaredId
        self.name = name
        self.condition = condition
    }

    /// How people see the step: its name, or its kind.
    public var title: String { name ?? id }
}
