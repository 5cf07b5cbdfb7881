import PipelineCore

/// The keys of `outcomes`, each declared once, with the shared retry group.
package struct OutcomesOptions: DeclaredOptions {
    /// `hub`.
    @Key(
        .hub(
            "the declared hub the step sent through; reading its telemetry needs the Standard tier and a key with Manage"
        ))
    package var hub: HubDeclaration?
    /// `of`.
    @Key(
        .earlierStep(
            "of", output: "notification-ids", examples: ["digest"],
            "the `id:` of the earlier step whose notifications to read (a `send`): a uniform sample of the ids the run journal holds for it, "
                + "or, in a run without a journal, of the ids it handed on"))
    package var of: String?
    /// `wait`.
    @Key(
        .duration(
            "wait", in: 1...21_600, default: 600, examples: ["10m", "30s"],
            "how long to keep reading until every outcome is final (telemetry can take minutes to become final)"))
    package var wait: Int64
    /// `sample`.
    @Key(
        .integer(
            "sample", in: 1...1000, default: 100, examples: ["100"],
            "how many of the step's notifications to read; more are read through a uniform sample of this size"))
    package var sample: Int
    /// `retries`, `retry-delay`, `retry-max-delay`.
    @KeyGroup package var retry: RetryKeys

    /// Every key at its default.
    package init() {}
}
