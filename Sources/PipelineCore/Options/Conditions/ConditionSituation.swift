/// What a `when:` expression is judged against when its step is about to run (the engine makes one per step).
package struct ConditionSituation: Sendable {
    /// What earlier steps handed on.
    package var outputs: EarlierOutputs
    /// True when an earlier step failed.
    package var earlierFailed: Bool
    /// True in a dry run.
    package var isDryRun: Bool
    /// How messages name the step (`step 'summary'`).
    package var consumer: String

    /// A situation to judge a condition in.
    package init(outputs: EarlierOutputs, earlierFailed: Bool, isDryRun: Bool, consumer: String) {
        self.outputs = outputs
        self.earlierFailed = earlierFailed
        self.isDryRun = isDryRun
        self.consumer = consumer
    }
}
