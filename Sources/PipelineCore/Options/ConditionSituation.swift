/// What a `when:` expression is judged against when its step is about to run (the engine makes one per step).
struct ConditionSituation: Sendable {
    /// What earlier steps handed on.
    var outputs: EarlierOutputs
    /// True when an earlier step failed.
    var earlierFailed: Bool
    /// True in a dry run.
    var isDryRun: Bool
    /// How messages name the step (`step 'summary'`).
    var consumer: String
}
