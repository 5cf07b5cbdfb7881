import Foundation
import HubWire
import PipelineCore
import PluginProtocol
import RunStore

/// A plugin step with external effects, journalled as one item of its step, the way a send's notification is: marked
/// `sending` before the plugin is asked to run, `accepted` when it answers with a result, `failed` when it answers
/// with an error (it said nothing happened), and `unknown` when it is stopped, times out or breaks the protocol after
/// the request went out (whatever it writes to may have changed). So a run cut off while the plugin ran does not run
/// it again on resume unless the plugin declared `repeatSafe`, and `pushline runs resolve` settles it like any
/// unknown item. Its idempotency key (the plugin, its options and the step's place) is held across runs within the
/// default dedupe window, as a send's is: the same request of the same pipeline done by another run is not done twice.
struct PluginEffect {
    /// The journal item.
    let item: LedgerItem
    let ledger: any ItemLedger
    let plugin: String
    let repeatSafe: Bool
    let control: BatchControl
    let now: Double

    /// What the journal says before the plugin runs.
    enum Admission {
        /// Run it (the item is marked `sending`).
        case run
        /// Do not: the result to report instead.
        case settled(StepResult)
    }

    /// The effect of step `context`'s plugin, when it is journalled: a live run with a writable journal and a plugin
    /// with external effects. `identity` names the plugin, its options and environment (`PluginStep.sourceDigest`).
    init?(_ context: StepContext, plugin: String, identity: String, repeatSafe: Bool) {
        guard !context.isDryRun, let ledger = context.batch.ledger, ledger.isWritable else { return nil }
        let key =
            "plugin:"
            + ContentDigest.hex(
                ["plugin-effect-v1", context.document.name, "\(context.stepIndex)", identity].joined(separator: "\n"))
        var item = LedgerItem(
            key: LedgerKey(step: context.stepIndex, row: 1), stepId: context.stepName ?? plugin,
            origin: "plugin '\(plugin)'", digest: identity, idempotencyKey: key, target: "plugin \(plugin)")
        item.claimsKey = true
        self.item = item
        self.ledger = ledger
        self.plugin = plugin
        self.repeatSafe = repeatSafe
        self.control = context.batch
        self.now = context.clock.now().timeIntervalSince1970
    }

    /// Reads what an earlier attempt of this run, or another run within the window, left of this request, and marks it
    /// `sending` when it is to run.
    func admit() async throws(StepFailure) -> Admission {
        do throws(LedgerError) {
            if control.isResume, let entry = try await ledger.entry(item.key) {
                switch entry.state {
                case .accepted:
                    return .settled(
                        StepResult(
                            summary: "plugin '\(plugin)' ran in an earlier attempt of this run (not run again)",
                            items: ItemCounts(skipped: 1)))
                case .sending, .unknown:
                    // An unknown one never sent (attempts 0) was held back by another run's: that is asked again below.
                    guard entry.attempts > 0, !repeatSafe, !control.resendUnknown else { break }
                    let reason =
                        entry.error ?? "an earlier attempt of this run was cut off while plugin '\(plugin)' ran"
                    try await ledger.record([LedgerOutcome(item: item, state: .unknown, error: reason)], skips: [])
                    return .settled(unknown(reason))
                default:
                    break
                }
            }
            let claim = KeyClaim(
                since: now - Double(BatchOptions.defaultDedupeWindow), acceptedHolds: !control.again,
                unsettledHolds: !control.resendUnknown)
            let held = try await ledger.markSending([item], claim: claim)
            guard let prior = held[item.key] else { return .run }
            if prior.state == .accepted {
                try await ledger.record(
                    [LedgerOutcome(item: item, state: .duplicate, error: "already run by run \(prior.runId)")],
                    skips: [])
                return .settled(
                    StepResult(
                        summary: "plugin '\(plugin)' was run with the same options by run \(prior.runId) at "
                            + "\(Timestamp.iso8601(Date(timeIntervalSince1970: prior.at))) (within the dedupe window; --again runs it anyway)",
                        items: ItemCounts(duplicates: 1)))
            }
            let reason = "run \(prior.runId) left the same request to plugin '\(plugin)' of unknown fate"
            try await ledger.record([LedgerOutcome(item: item, state: .unknown, error: reason)], skips: [])
            return .settled(unknown(reason, run: prior.runId))
        } catch {
            throw error.stepFailure
        }
    }

    /// Records how the plugin's run ended: `accepted`, `failed` (it answered with an error) or `unknown`.
    func record(_ state: ItemState, error: String? = nil) async throws(StepFailure) {
        do throws(LedgerError) {
            try await ledger.record(
                [LedgerOutcome(item: item, state: state, error: error, retriable: state == .failed)], skips: [])
        } catch {
            throw error.stepFailure
        }
    }

    /// The result of a step whose plugin is not run because whether an earlier request took effect is not known.
    private func unknown(_ reason: String, run: String? = nil) -> StepResult {
        let settle = "pushline runs resolve \(run ?? control.run?.id ?? "RUN") --step \(item.key.step)"
        return StepResult(
            summary: "plugin '\(plugin)' not run: \(reason); whether it took effect is unknown",
            lines: [
                "check what the plugin writes to, then `\(settle) --delivered` (it did) or `--resend` (run it on the next start)"
            ],
            items: ItemCounts(unknown: 1))
    }
}
