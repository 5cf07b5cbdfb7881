/// What a `when:` expression is judged against when its step is about to run.
public struct ConditionSituation: Sendable {
    /// What earlier steps handed on.
    public var outputs: EarlierOutputs
    /// True when an earlier step failed.
    public var earlierFailed: Bool
    /// True in a dry run.
    public var isDryRun: Bool
    /// How messages name the step (`step 'summary'`).
    public var consumer: String

    /// Creates a situation.
    public init(outputs: EarlierOutputs, earlierFailed: Bool, isDryRun: Bool, consumer: String) {
        self.outputs = outputs
        self.earlierFailed = earlierFailed
        self.isDryRun = isDryRun
        self.consumer = consumer
    }
}
