import PipelineCore

extension SendOptionsDecoder {
    /// `outcomes: { wait, sample }`, checked against what the send does: a test send reports its devices' outcomes
    /// itself, and a scheduled send's telemetry exists only once it goes out.
    func decodeOutcomes(test: Bool, scheduled: Bool) -> OutcomeSettings?? {
        guard let node = options.value(Keys.outcomes) else { return .some(nil) }
        guard node.entries != nil else {
            options.error("'outcomes' must be a mapping such as { wait: 10m }, found \(node.kindName)", at: node,
                          hint: "outcomes: { wait: 10m } reads the notifications' telemetry for up to 10 minutes after sending")
            return nil
        }
        let reader = OptionReader(node, specs: OutcomeSettings.keys, step: options.step, what: "outcomes", diagnostics: options.diagnostics)
        let errorsBefore = options.diagnostics.errorCount
        let wait = reader.duration("wait", in: 1...21_600)
        let sample = reader.contains("sample") ? reader.integer("sample", in: 1...1000) : 100
        if test {
            options.error("a test send reports each device's outcome itself; `outcomes:` reads telemetry of real sends", at: node,
                          hint: "remove `outcomes:` or `test: true`")
        }
        if scheduled {
            options.error("a scheduled send has no outcome until it goes out; read it then with `pushline notification show ID`", at: node,
                          hint: "remove `outcomes:` or `schedule:`")
        }
        guard options.diagnostics.errorCount == errorsBefore, let wait, let sample else { return nil }
        return .some(OutcomeSettings(wait: Double(wait), sample: sample))
    }
}
