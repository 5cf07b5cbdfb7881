import HubClient
import HubWire
import Logging
import PipelineCore
import RunStore

/// `outcomes`: reads NH's per-message telemetry for the notifications an earlier step sent (a uniform sample of them)
/// until every outcome is final or the wait ends, and hands on what reached a device.
package struct OutcomesStep: DeclaredStep {
    /// The YAML key of this step.
    package static let id = "outcomes"
    /// One line for docs.
    package static let summary =
        "Reads the delivery outcomes of an earlier step's notifications from the hub's telemetry."

    /// What `outcomes` hands to later steps.
    package typealias Outputs = OutcomeOutputs

    /// Examples as they appear under `steps:`.
    package static let examples = [
        "- id: scores\n  send: { hub: sports, audience: boston-fans, properties: { message: \"Red Sox win!\" } }\n- outcomes: { hub: sports, of: scores, wait: 10m }",
        "- id: digest\n  send: { hub: digest, for-each: ../data/rows.csv, audience: \"$UserId:{$(userId)}\", properties: { message: \"$(headline)\" } }\n"
            + "- outcomes: { hub: digest, of: digest, wait: 30m, sample: 200 }",
    ]

    /// `send: { outcomes: { wait, sample } }`, reading outcomes before it was a step: the send, then this step with the
    /// send's hub.
    package static let formerSplits = [
        StepSplit(
            kind: "send", key: "outcomes", newKind: id, shared: ["hub"], naming: "of",
            outputs: OutcomeOutputs.outputSpecs.map(\.name))
    ]

    /// The hub whose telemetry is read.
    let hub: HubDeclaration
    /// The `id:` of the step whose notifications are read.
    let of: String
    /// Seconds to keep reading at most.
    let wait: Int64
    /// Notifications read at most.
    let sample: Int
    /// How each request retries.
    let policy: RetryPolicy
    /// How the step waits between reads (tests give one that returns at once).
    var sleep: @Sendable (Double) async throws -> Void = OutcomeCollector.sleepForReal

    /// Checks the hub; `of` was checked against the pipeline's steps when it was built.
    package static func build(_ options: OutcomesOptions, reporting reader: OptionReader, in context: BuildContext)
        -> OutcomesStep?
    {
        guard let hub = options.hub, let of = options.of else { return nil }
        return OutcomesStep(
            hub: hub, of: of, wait: options.wait, sample: options.sample, policy: options.retry.policy())
    }

    /// Telemetry needs the Manage right.
    package var access: [HubAccess] {
        [HubAccess(hub: hub, right: .manage, purpose: "read delivery outcomes (telemetry)")]
    }

    /// Reads the outcomes of a sample of step `of`'s notifications.
    package func run(in context: StepContext) async throws -> StepResult {
        let consumer = "step '\(context.stepName ?? Self.id)'"
        guard
            case .list(let handed, let total) = try context.earlierOutputs.value(
                of: OutputReference(step: of, output: "notification-ids"), for: consumer)
        else {
            throw StepFailure(
                "step '\(of)' hands on no list of notification ids",
                hint: "`of:` names a step that sends, such as `send`"
            ).coded(.referenceUnavailable)
        }
        let accepted = Self.integer("accepted", of: of, in: context) ?? total
        var outputs = OutcomeOutputs()
        if context.isDryRun {
            outputs.read(DeliveryOutcomes(state: .none))
            var result = StepResult(
                summary: "would read the delivery outcomes of step '\(of)' on hub '\(hub.name)' (nothing read)",
                lines: ["would read the notifications' outcomes for up to \(ConfigDuration.format(wait))"],
                data: data(DeliveryOutcomes(state: .none)))
            result.handOn(outputs)
            return result
        }
        let (ids, count, note) = try await sampled(handed, total: total, in: context)
        let read: DeliveryOutcomes
        if count == 0, accepted > 0 {
            // NH gives a notification id (the answer's Location) only on the Standard tier.
            read = DeliveryOutcomes(
                state: .unavailable,
                reason: "hub '\(hub.name)' gave no notification ids for the \(accepted) it accepted: "
                    + "it keeps no per-message telemetry (a Free or Basic hub); that needs the Standard tier",
                of: accepted)
        } else {
            let session = try context.session(for: hub).with(policy: policy)
            let stop = context.batch.stop
            read = await OutcomeCollector(session: session, sleep: sleep).collect(
                ids, of: count, wait: Double(wait), stopped: { stop.isRequested })
        }
        outputs.read(read)
        var result = StepResult(summary: summary(read), lines: (note.map { [$0] } ?? []) + read.lines, data: data(read))
        result.handOn(outputs)
        if read.reachedNoDevice {
            result.reachedNoDevice = true
            result.lines.append(read.reachedNoDeviceWarning)
            context.logger.warning(
                "no device reached",
                metadata: ["read": "\(read.read)", "of": "\(read.of)", "deadChannels": "\(read.deadChannels)"])
        } else if read.state == .unavailable || read.state == .partial {
            context.logger.warning("outcomes \(read.state.rawValue)", metadata: ["reason": "\(read.reason ?? "")"])
        }
        return result
    }

    /// A sample of the step's notification ids, how many there are, and a note when the sample covers only what was
    /// handed on: the run journal holds every id the step was given (a resumed run's earlier attempts' too); a run
    /// without one has only the first ids the step handed on.
    private func sampled(_ handed: [String], total: Int, in context: StepContext) async throws -> (
        ids: [String], of: Int, note: String?
    ) {
        if let index = context.earlierOutputs.index(of: of), let ledger = context.batch.ledger {
            let stored: NotificationSample?
            do throws(LedgerError) { stored = try await ledger.notificationIds(step: index, sample: sample) } catch {
                throw error.stepFailure
            }
            if let stored, stored.total >= total { return (stored.ids, stored.total, nil) }
        }
        let note =
            handed.count < total
            ? "the sample is of the first \(handed.count) of the \(total) ids step '\(of)' handed on: this run keeps no journal to read the rest from"
            : nil
        return (OutcomeCollector.sample(handed, size: sample), total, note)
    }

    /// The integer output `name` of step `id`, if it has one.
    private static func integer(_ name: String, of id: String, in context: StepContext) -> Int? {
        guard
            case .integer(let value)? = try? context.earlierOutputs.value(
                of: OutputReference(step: id, output: name), for: "")
        else { return nil }
        return value
    }

    /// One line saying what was found.
    private func summary(_ read: DeliveryOutcomes) -> String {
        let sample = read.read < read.of ? "a sample of \(read.read) of \(read.of)" : "\(read.read)"
        switch read.state {
        case .none: return "no delivery outcomes to read: step '\(of)' had no notification accepted"
        case .unavailable:
            return "delivery outcomes of step '\(of)' unavailable: \(read.reason ?? "the hub keeps no telemetry")"
        case .partial:
            return
                "delivery outcomes of step '\(of)' so far (\(sample) read, \(read.final) final): \(read.delivered) delivered, \(read.notDelivered) not"
        case .final:
            return
                "delivery outcomes of step '\(of)' (\(sample) read): \(read.delivered) delivered, \(read.notDelivered) not"
        }
    }

    /// The JSON report's detail.
    private func data(_ read: DeliveryOutcomes) -> ReportValue {
        .object([
            ReportField("hub", .string(hub.name)), ReportField("of", .string(of)), ReportField("outcomes", read.report),
        ])
    }
}
