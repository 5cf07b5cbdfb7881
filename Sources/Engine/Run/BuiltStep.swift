import PipelineCore

/// One decoded step with where it came from.
package struct BuiltStep: Sendable {
    /// 1-based position in `steps:`.
    package let index: Int
    /// The step kind.
    package let id: String
    /// Where the step is written.
    package let location: SourceLocation
    /// What was built.
    package internal(set) var step: any RunnableStep
    /// The outputs its kind declares (what the report shows of its result).
    package let outputs: [OutputSpec]
    /// The entry's `id:`, when it has one.
    package var declaredId: String?
    /// The entry's `name:`, when it has one.
    package var name: String?
    /// When the step runs.
    package var condition: StepCondition
    /// The file its `for-each` names, when it names one (not an earlier step's rows): a source the run keeps a copy of.
    package var forEachFile: RowSource?

    /// Creates a built step of `kind`.
    package init(
        index: Int, kind: StepKind, location: SourceLocation, step: any RunnableStep, declaredId: String? = nil,
        name: String? = nil,
        condition: StepCondition = .success
    ) {
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
    package var title: String { name ?? id }

    /// True for a source (`RunnableStep.readsSource`) that a new run reads before any other step: one that runs unless
    /// an earlier step failed, or always. A source with another `when:` is read at its turn.
    package var isReadFirst: Bool {
        step.readsSource && (condition == .success || condition == .always)
    }

    /// True when a new run's data is known only once it has read it: a source read first, or a `for-each` file.
    package var readsData: Bool { isReadFirst || forEachFile != nil }
}
