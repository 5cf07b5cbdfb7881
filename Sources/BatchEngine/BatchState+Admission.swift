import Foundation
import PipelineCore
import RunStore

/// Admission: what the journal says of an item before it is sent, on a resume and across runs (an item whose
/// idempotency key a run holds is not done again).
extension BatchState {
    /// What to do with `item`, or nil when it is not sent: malformed, settled by an earlier attempt of this
    /// run, or already sent (its idempotency key accepted by another run within the window, or by an earlier
    /// row of this run). Sets `stop` when the journal cannot be read.
    mutating func admit(_ item: BatchItem, ledger: (any ItemLedger)?) async -> Admitted? {
        switch item.work {
        case .invalid(let reason):
            settle(item, .bad, error: reason)
            return nil
        case .request, .job:
            break
        }
        // A dry run of a start that would resume reads the run's items through its read-only ledger (and writes nothing).
        if runner.control.isResume, let ledger = ledger ?? runner.control.ledger {
            let entry: LedgerEntry?
            do throws(LedgerError) {
                entry = try await ledger.entry(LedgerKey(step: runner.stepIndex, row: item.row))
            } catch {
                journalFailed(error)
                return nil
            }
            if let entry {
                guard entry.digest == item.digest else {
                    // The run's identity covers its inputs, so the journal and the input disagree: never guess, and
                    // leave the earlier record (and any id in it) as it was.
                    settle(
                        item, .failed,
                        error:
                            "\(item.origin): the \(runner.wording.item) differs from the one an earlier attempt journalled; not sent",
                        journal: false)
                    return nil
                }
                switch entry.state {
                case .accepted:
                    outcome.noteNotificationId(entry.notificationId)
                    pending.append(
                        Pending(
                            outcome: LedgerOutcome(
                                item: ledgerItem(item), state: .accepted, notificationId: entry.notificationId),
                            journal: false, skipped: true,
                            report: BatchItemReport(
                                row: item.row, label: item.shownLabel, outcome: "skipped", id: entry.notificationId)))
                    return nil
                case .duplicate:
                    settle(item, .duplicate, error: entry.error ?? "already sent", journal: false)
                    return nil
                case .bad:
                    settle(item, .bad, error: entry.error ?? "malformed", journal: false)
                    return nil
                case .failed where !entry.retriable:
                    settle(item, .failed, error: entry.error ?? "failed in an earlier attempt", journal: false)
                    return nil
                case _ where item.repeatable:
                    // Every request of the item is safe to repeat: do it again, upserting what an earlier attempt made.
                    if let id = entry.notificationId, case .job(let job) = item.work { return .job(job, reusing: id) }
                case .unknown where entry.attempts == 0:
                    // Never sent by this run: it was held back because another run left the same notification
                    // of unknown fate. Ask again, since that run's item may have been settled meanwhile.
                    break
                case .sending, .unknown:
                    if runner.control.resendUnknown { return Self.admitted(item, reusing: nil) }
                    let reason =
                        entry.error
                        ?? "an earlier attempt stopped while this was being sent; the hub may have accepted it"
                    settle(item, .unknown, error: reason)
                    return nil
                case .failed, .pending:
                    break
                }
            }
        }
        return await deduplicated(item)
    }

    static func admitted(_ item: BatchItem, reusing id: String?) -> Admitted? {
        switch item.work {
        case .request(let request): .request(request)
        case .job(let job): .job(job, reusing: id)
        case .invalid: nil
        }
    }

    /// The item as it is marked `sending`: claiming its key when it must not go out beside another run's send of it.
    func markedItem(_ item: BatchItem) -> LedgerItem {
        var marked = ledgerItem(item)
        marked.claimsKey = claimsKey(item)
        return marked
    }

    /// The item, unless the same one (idempotency key) was done already within the window.
    mutating func deduplicated(_ item: BatchItem) async -> Admitted? {
        guard runner.dedupeWindow > 0, item.dedupes, let key = item.key, let lookup = runner.control.ledger else {
            return Self.admitted(item, reusing: nil)
        }
        let since = runner.clock.now().timeIntervalSince1970 - runner.dedupeWindow
        let prior: PriorSend?
        if let known = takePrefetched(item) {
            prior = known
        } else {
            do throws(LedgerError) {
                prior = try await lookup.priorSend(
                    key: key, since: since, excluding: LedgerKey(step: runner.stepIndex, row: item.row))
            } catch {
                journalFailed(error)
                return nil
            }
        }
        guard let prior else { return Self.admitted(item, reusing: nil) }
        if prior.sameRun {
            settleHeld(item, by: prior)
            return nil
        }
        switch prior.state {
        case .accepted where runner.control.again:
            // `--again` overrides what was sent, not what is of unknown fate (that takes --resend-unknown).
            outcome.resent += 1
            return Self.admitted(item, reusing: nil)
        case _ where prior.state != .accepted && item.repeatable:
            // Another run left it of unknown fate: upsert what that run made, if it journalled an id.
            return Self.admitted(item, reusing: prior.notificationId)
        case _ where prior.state != .accepted && runner.control.resendUnknown:
            return Self.admitted(item, reusing: nil)
        default:
            await hold(item, by: prior)
            return nil
        }
    }

    /// What marking items `sending` claims: their keys, unless a run holds them (checked again at that moment, in the
    /// same transaction as the mark, so a run that overlaps this one and marked a key since its item was admitted here
    /// is seen). `--again` lifts what was accepted, `--resend-unknown` what is of unknown fate.
    var keyClaim: KeyClaim {
        KeyClaim(
            since: runner.clock.now().timeIntervalSince1970 - runner.dedupeWindow, acceptedHolds: !runner.control.again,
            unsettledHolds: !runner.control.resendUnknown)
    }

    /// Whether `item` claims its key when it is marked: not without a key or a dedupe window, nor when it is safe to
    /// repeat.
    func claimsKey(_ item: BatchItem) -> Bool {
        runner.dedupeWindow > 0 && item.dedupes && item.key != nil && !item.repeatable
    }

    /// Settles an item whose idempotency key `prior` holds: a duplicate of what this run or another sent, or held
    /// back while another run's send of it is of unknown fate (or still going).
    mutating func settleHeld(_ item: BatchItem, by prior: PriorSend) {
        if prior.sameRun {
            // Two rows of one run that make the same notification: the first one sends it.
            settle(
                item, .duplicate,
                error: "already sent by this run (the same \(runner.wording.thing) as \(prior.origin))",
                notificationId: prior.notificationId)
            return
        }
        // Kept as a range with the rows around it that the same run sent, not as a record of its own.
        if prior.state == .accepted, let key = prior.key, noteSkip(item, sentBy: prior, at: key) {
            settleSkipped(item, sentBy: prior)
            return
        }
        let when = Timestamp.iso8601(Date(timeIntervalSince1970: prior.at))
        if prior.state == .accepted {
            settle(
                item, .duplicate, error: "already sent by run \(prior.runId) (\(prior.origin) at \(when))",
                notificationId: prior.notificationId)
        } else {
            settle(
                item, .unknown,
                error: "left of unknown fate by run \(prior.runId) (\(prior.origin) at \(when)); "
                    + "`pushline runs resolve \(prior.runId)` settles it")
        }
    }
}
