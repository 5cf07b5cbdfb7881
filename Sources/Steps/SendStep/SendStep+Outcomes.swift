import BatchEngine
import HubClient
import PipelineCore

extension SendStep {
    /// With `outcomes:`, reads the telemetry of (a sample of) the notifications the step sent and adds what it found to
    /// the result: outputs, report, lines, and the "reached no device" mark. Without it, `outcome-state` is `off`.
    func withOutcomes(_ result: StepResult, of batch: BatchOutcome, session: HubSession, context: StepContext) async -> StepResult {
        var result = result
        var outputs = SendOutputs(batch)
        guard let settings = outcomes else {
            outputs.outcomes.state = "off"
            result.handOn(outputs)
            return result
        }
        if context.isDryRun {
            result.lines.append("would read the notifications' outcomes for up to \(ConfigDuration.format(Int64(settings.wait)))")
            // Zeros, as a dry run's `accepted` is: a later step that reads them can be planned too.
            outputs.outcomes.read(DeliveryOutcomes(state: .none))
            result.handOn(outputs)
            return result
        }
        let accepted = batch.counts.accepted + batch.counts.skipped
        let read: DeliveryOutcomes
        if batch.interrupted || context.batch.stop.isRequested {
            read = DeliveryOutcomes(state: .partial, reason: "a stop signal ended the run before the outcomes were read; "
                                        + "`pushline runs outcomes` reads them later", of: accepted)
        } else if batch.notificationIdTotal == 0, accepted > 0 {
            // NH gives a notification id (the answer's Location) only on the Standard tier.
            read = DeliveryOutcomes(state: .unavailable, reason: "hub '\(hub.name)' gave no notification ids for the \(accepted) it accepted: "
                                        + "it keeps no per-message telemetry (a Free or Basic hub); that needs the Standard tier", of: accepted)
        } else {
            let ids = OutcomeCollector.sample(batch.sampledNotificationIds, size: settings.sample)
            let stop = context.batch.stop
            read = await OutcomeCollector(session: session, sleep: outcomeSleep)
                .collect(ids, of: batch.notificationIdTotal, wait: settings.wait, stopped: { stop.isRequested })
        }
        outputs.outcomes.read(read)
        result.handOn(outputs)
        result.lines += read.lines
        if case .object(var fields) = result.data {
            fields.append(ReportField("outcomes", read.report))
            result.data = .object(fields)
        }
        if read.reachedNoDevice {
            result.reachedNoDevice = true
            result.lines.append(read.reachedNoDeviceWarning)
            context.logger.warning("no device reached", metadata: ["read": "\(read.read)", "of": "\(read.of)", "deadChannels": "\(read.deadChannels)"])
        } else if read.state == .unavailable || read.state == .partial {
            context.logger.warning("outcomes \(read.state.rawValue)", metadata: ["reason": "\(read.reason ?? "")"])
        }
        return result
    }
}
