import Foundation
import HubClient
import HubWire
import PipelineCore
import RunStore

extension BatchState {
    /// The journal's failure stops the batch, ahead of any other reason: outcomes may be missing from it.
    mutating func journalFailed(_ error: LedgerError) {
        let failure = error.stepFailure
        journalFailed(message: failure.message, hint: failure.hint)
    }

    mutating func journalFailed(message: String, hint: String?) {
        if stop?.cause == .journal { return }
        let earlier = stop.map { "; before that: \($0.message)" } ?? ""
        stop = BatchStop(.journal, message: message + earlier, hint: hint)
    }

    /// With `committingNext`, the next group's commit records what is pending (`commit(_:marking:)`), so only progress
    /// is reported here.
    mutating func flushIfDue(_ ledger: (any ItemLedger)?, committingNext: Bool = false) async {
        let now = ContinuousClock.now
        if !committingNext, pending.count >= BatchRunner.flushEvery || now - lastFlush >= .milliseconds(100) {
            await flush(ledger)
        }
        if now - lastReport >= .milliseconds(500) {
            lastReport = now
            runner.control.progress?.report(progress(), final: false)
        }
    }

    /// Journals pending outcomes in one transaction, then counts them. Counted even when the journal fails:
    /// the items were done, and the journal shows them `sending`, which a resume reports (or, for repeatable
    /// items, redoes).
    mutating func flush(_ ledger: (any ItemLedger)?, final: Bool = false) async {
        lastFlush = ContinuousClock.now
        if let ledger, ledger.isWritable {
            let records = pending.filter(\.journal).map(\.outcome)
            let skips = skipsDue(writing: !records.isEmpty, final: final)
            if !records.isEmpty || !skips.isEmpty {
                do throws(LedgerError) {
                    try await ledger.record(records, skips: skips)
                    skipsWritten(skips)
                } catch { journalFailed(error) }
            }
        }
        countPending()
    }

    /// The group commit: journals pending outcomes (and skip ranges) and marks `marks` `sending` under the run's key
    /// claim, in one transaction, then counts the outcomes. Returns the items a run holds the key of (not marked), or
    /// nil when the journal failed: then nothing of the transaction was written, nothing of `marks` is sent, and the
    /// outcomes stay pending for the batch's last flush to try again (a claim or mark that failed must not lose
    /// answers the hub gave).
    mutating func commit(_ ledger: any ItemLedger, marking marks: [LedgerItem]) async -> [LedgerKey: PriorSend]? {
        lastFlush = ContinuousClock.now
        let records = pending.filter(\.journal).map(\.outcome)
        let skips = skipsDue(writing: !records.isEmpty, final: false)
        let held: [LedgerKey: PriorSend]
        do throws(LedgerError) {
            held = try await ledger.commit(recording: records, skips: skips, marking: marks, claim: keyClaim)
            skipsWritten(skips)
        } catch {
            journalFailed(error)
            return nil
        }
        countPending()
        return held
    }

    /// Counts the pending outcomes (journalled, or the journal failed) and keeps their reports.
    private mutating func countPending() {
        guard !pending.isEmpty else { return }
        for recorded in pending {
            switch recorded.outcome.state {
            case .accepted where recorded.skipped: outcome.counts.skipped += 1
            case .accepted where runner.isDryRun: outcome.counts.planned += 1
            case .accepted: outcome.counts.accepted += 1
            case .unknown, .sending: outcome.counts.unknown += 1
            case .failed, .pending: outcome.counts.failed += 1
            case .duplicate: outcome.counts.duplicates += 1
            case .bad: outcome.counts.bad += 1
            }
            keep(recorded.report)
        }
        pending.removeAll(keepingCapacity: true)
    }
}
