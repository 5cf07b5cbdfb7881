import Foundation
import PipelineCore
import RunStore

/// Rows another run had sent: counted and reported one by one, journalled as ranges (`SkipRange`), so a re-run of a
/// fixed input writes what it sends rather than a record for each of the rows it skips.
extension BatchState {
    /// Takes `item`, which `prior` (another run's accepted item at `key`) already sent, into the open skip range,
    /// closing that range when the item does not continue it. False, taking nothing, without a journal to write to
    /// (a dry run): the item is then settled as any duplicate.
    mutating func noteSkip(_ item: BatchItem, sentBy prior: PriorSend, at key: LedgerKey) -> Bool {
        guard journals else { return false }
        if var open = openSkip {
            if open.extend(row: item.row, origin: item.origin, priorRun: prior.runId, prior: key) {
                openSkip = open
                return true
            }
            closedSkips.append(open)
        }
        openSkip = SkipRange(
            step: runner.stepIndex, stepId: runner.stepId, row: item.row, origin: item.origin, priorRun: prior.runId,
            prior: key)
        return true
    }

    /// Counts and reports `item`, skipped because `prior` sent it, as `settle` would a duplicate, without journalling
    /// it (its range is) and without writing out its reason unless the report keeps it: a re-run of a million rows
    /// spends its time on the few it sends.
    mutating func settleSkipped(_ item: BatchItem, sentBy prior: PriorSend) {
        let reason = {
            "already sent by run \(prior.runId) (\(prior.origin) at \(Timestamp.iso8601(Date(timeIntervalSince1970: prior.at))))"
        }
        let group: (runId: String, reason: String, key: String)
        if let known = skipGroup, known.runId == prior.runId {
            group = known
        } else {
            let text = "already sent by run \(prior.runId)"
            group = (prior.runId, text, Self.groupKey(.duplicate, text))
            skipGroup = group
        }
        count(.duplicate, in: group.reason, key: group.key, hint: nil) { "\(item.origin): \(reason())" }
        outcome.counts.duplicates += 1
        if item.row >= 1, item.row <= runner.keptItems {
            keep(
                BatchItemReport(
                    row: item.row, label: item.shownLabel, outcome: ItemState.duplicate.rawValue,
                    id: prior.notificationId,
                    reason: reason()))
        }
    }

    /// The skip ranges to write with this flush: those closed since the last one, and the open one when anything is
    /// written anyway, a second went by, or `final`. (A range lost to a killed process is found again on resume: the
    /// rows it covers are not journalled, so they are read and checked again.)
    mutating func skipsDue(writing records: Bool, final: Bool) -> [SkipRange] {
        guard let open = openSkip, open != writtenSkip else { return closedSkips }
        let due = final || records || !closedSkips.isEmpty || ContinuousClock.now - lastSkipWrite >= .seconds(1)
        return due ? closedSkips + [open] : closedSkips
    }

    /// After `written` were journalled.
    mutating func skipsWritten(_ written: [SkipRange]) {
        guard !written.isEmpty else { return }
        closedSkips.removeAll()
        if let open = openSkip, written.last == open { writtenSkip = open }
        lastSkipWrite = .now
    }
}
