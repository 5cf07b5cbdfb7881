import PipelineCore

extension SendOptionsDecoder {
    /// `outcomes: { wait, sample }`, checked against what the send does: a test send reports its devices' outcomes
    /// itself, and a scheduled send's telemetry exists only once it goes out.
    func decodeOutcomes(test: Bool, scheduled: Bool) -> OutcomeSettings?? {
        guard let node = values.$outcomes.node else { return .some(nil) }
        let errorsBefore = options.diagnostics.errorCount
        if test {
            options.error("a test send reports each device's outcome itself; `outcomes:` reads telemetry of real sends", at: node,
                          hint: "remove `outcomes:` or `test: true`")
        }
        if scheduled {
            options.error("a scheduled send has no outcome until it goes out; read it then with `pushline notification show ID`", at: node,
                          hint: "remove `outcomes:` or `schedule:`")
        }
        guard options.diagnostics.errorCount == errorsBefore, let keys = values.outcomes, let wait = keys.wait else { return nil }
        return .some(OutcomeSettings(wait: Double(wait), sample: keys.sample))
    }
}
