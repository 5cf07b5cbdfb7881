import Foundation
import PipelineCore

/// `RegisterRunner`'s bookkeeping for one run: the journal's say on each device, outcomes waiting to be
/// journalled, counts, and the results the report keeps.
///
/// Memory stays bounded whatever the number of devices: the first `RegisterRunner.keptResults` results
/// and the first few failures are kept; everything else is counted (and is in the journal).
struct DeviceTally {
    private let runner: RegisterRunner
    private var result = RegisterRunner.Outcome()
    private var begun = 0
    private var slots: [DeviceResult?] = []
    private var firstFailures: [(index: Int, result: DeviceResult)] = []
    /// Ledger items of devices in flight, by index, so their outcome is recorded under the same key.
    private var inFlight: [Int: LedgerItem] = [:]
    /// Finished devices whose outcome is not journalled yet; a device counts only once it is.
    private var pending: [(index: Int, record: LedgerOutcome?, result: DeviceResult)] = []
    private let started = ContinuousClock.now
    private var lastFlush = ContinuousClock.now
    private var lastReport = ContinuousClock.now

    init(runner: RegisterRunner) {
        self.runner = runner
    }

    /// Why the step stopped starting devices.
    var stop: RunStop? {
        get { result.stop }
        set { result.stop = newValue }
    }

    /// True when a stop signal ended admission.
    var interrupted: Bool {
        get { result.interrupted }
        set { result.interrupted = newValue }
    }

    /// Numbers the next device from the source (0-based; the journal's row is this plus one).
    mutating func begin() -> Int {
        defer { begun += 1 }
        return begun
    }

    /// The work to send for a device, after the journal's say: nil when an earlier attempt settled it,
    /// when another run (or an earlier row) did the same device within the dedupe window (then it is
    /// counted here), or when the journal cannot be read (then `stop` is set).
    mutating func resume(_ work: DeviceWork, index: Int) async -> (work: DeviceWork, reusedId: String?)? {
        if let journal = runner.journal {
            let origin = work.origin ?? work.device
            let prior: DeviceLedger.Prior
            do throws(LedgerError) { prior = try await journal.prior(row: index + 1, digest: work.digest) } catch {
                journalFailed(error)
                return nil
            }
            switch prior {
            case .send:
                break
            case .resend(let registrationId):
                guard case .register(var job) = work.job, job.id == nil else { return (work, nil) }
                job.journalledId = registrationId
                return (DeviceWork(device: work.device, origin: work.origin, job: .register(job)), registrationId)
            case .done(let registrationId):
                await settle(index, DeviceResult(device: work.device, outcome: .skipped, registrationId: registrationId), record: nil)
                return nil
            case .failed(let reason):
                await settle(index, .failed(work.device, reason), record: nil)
                return nil
            case .settled(let state, let reason):
                await settle(index, DeviceResult(device: work.device, outcome: state == .bad ? .bad : .duplicate, reason: reason), record: nil)
                return nil
            case .differs:
                // The run's identity covers its inputs, so the journal and the input disagree: never guess.
                let reason = "\(origin): the device differs from the one an earlier attempt journalled; not sent"
                // Nothing is written: the earlier record (and any registration id in it) stays as it was.
                await settle(index, .failed(work.device, reason), record: nil)
                return nil
            }
        }
        return await deduplicated(work, index: index)
    }

    /// `work`, unless it creates a registration that a run of the pipeline (or an earlier row of this run)
    /// created within the dedupe window.
    ///
    /// Only a registration without an id is held back: each one creates a new registration, so making it
    /// twice would deliver every notification twice. Installation PUT, PATCH and DELETE and registration
    /// upserts by id set the state of one resource; repeating them is harmless, and skipping one because an
    /// earlier run wrote the same content could leave a later change in place. When another run left the
    /// same registration of unknown fate with its id journalled, that id is upserted again rather than a
    /// second registration made.
    private mutating func deduplicated(_ work: DeviceWork, index: Int) async -> (work: DeviceWork, reusedId: String?)? {
        guard runner.dedupeWindow > 0, let lookup = runner.control.ledger, case .register(var job) = work.job, job.id == nil
        else { return (work, nil) }
        let since = runner.clock.now().timeIntervalSince1970 - runner.dedupeWindow
        let prior: PriorSend?
        do throws(LedgerError) {
            prior = try await lookup.priorSend(key: runner.key(work), since: since, excluding: LedgerKey(step: runner.stepIndex, row: index + 1))
        } catch {
            journalFailed(error)
            return nil
        }
        guard let prior else { return (work, nil) }
        if !prior.sameRun, prior.state != .accepted {
            guard let registrationId = prior.notificationId else { return (work, nil) }
            job.journalledId = registrationId
            return (DeviceWork(device: work.device, origin: work.origin, job: .register(job)), registrationId)
        }
        if !prior.sameRun, runner.control.again {
            result.resent += 1
            return (work, nil)
        }
        let reason = prior.sameRun ? "already sent by this run (the same registration as \(prior.origin))"
            : "already sent by run \(prior.runId) (\(prior.origin) at \(RunReport.timestamp(Date(timeIntervalSince1970: prior.at))))"
        let record = runner.journal.map {
            LedgerOutcome(item: $0.item(row: index + 1, origin: work.origin ?? work.device, digest: work.digest,
                                        idempotencyKey: runner.key(work), target: work.device),
                          state: .duplicate, notificationId: prior.notificationId, error: reason)
        }
        await settle(index, DeviceResult(device: work.device, outcome: .duplicate, reason: reason), record: record)
        return nil
    }

    /// Marks the device `sending` before its first request; false (with `stop` set) when the journal fails.
    mutating func markSending(_ work: DeviceWork, index: Int, reusedId: String?) async -> Bool {
        guard let journal = runner.journal else { return true }
        let item = journal.item(row: index + 1, origin: work.origin ?? work.device, digest: work.digest, idempotencyKey: runner.key(work),
                                target: work.device)
        do throws(LedgerError) { try await journal.markSending(item, registrationId: reusedId) } catch {
            journalFailed(error)
            return false
        }
        inFlight[index] = item
        return true
    }

    /// A row that failed the offline checks: journalled bad, never sent.
    mutating func invalid(_ index: Int, device: String, reason: String) async {
        let stripped = reason.hasPrefix(device + ": ") ? String(reason.dropFirst(device.count + 2)) : reason
        let record = runner.journal.map {
            LedgerOutcome(item: $0.item(row: index + 1, origin: device, digest: ""), state: .bad, error: stripped)
        }
        await settle(index, DeviceResult(device: device, outcome: .bad, reason: reason), record: record)
    }

    /// A device whose requests came back.
    mutating func finish(_ finished: (index: Int, result: DeviceResult)) async {
        let (index, device) = finished
        if stop == nil, let deviceStop = device.stop { stop = deviceStop }
        let record = inFlight.removeValue(forKey: index).map { item in
            device.outcome == .failed
                ? LedgerOutcome(item: item, state: .failed, notificationId: device.registrationId, error: device.reason,
                                retriable: device.retriable)
                : LedgerOutcome(item: item, state: .accepted, notificationId: device.registrationId)
        }
        await settle(index, device, record: record)
    }

    private mutating func settle(_ index: Int, _ device: DeviceResult, record: LedgerOutcome?) async {
        pending.append((index, record, device))
        await flushIfDue()
    }

    /// Journals and counts finished devices every 64 or every 100 ms; reports progress every 500 ms.
    mutating func flushIfDue() async {
        let now = ContinuousClock.now
        if pending.count >= 64 || now - lastFlush >= .milliseconds(100) { await flush() }
        if now - lastReport >= .milliseconds(500) {
            lastReport = now
            runner.control.progress?.report(progress(), final: false)
        }
    }

    /// Journals pending outcomes in one transaction, then counts them.
    mutating func flush() async {
        lastFlush = ContinuousClock.now
        guard !pending.isEmpty else { return }
        let records = pending.compactMap(\.record)
        if let journal = runner.journal, !records.isEmpty {
            // Counted all the same: the devices were done; the journal shows them `sending`, and a resume
            // repeats them, which is safe (see DeviceLedger).
            do throws(LedgerError) { try await journal.ledger.record(records) } catch { journalFailed(error) }
        }
        for (index, _, device) in pending { count(index, device) }
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func count(_ index: Int, _ device: DeviceResult) {
        switch device.outcome {
        case .created, .updated, .deleted:
            // A dry run sends nothing: its devices are planned, never accepted.
            if runner.log != nil { result.counts.planned += 1 } else { result.counts.accepted += 1 }
        case .skipped: result.counts.skipped += 1
        case .duplicate: result.counts.duplicates += 1
        case .failed, .bad:
            if device.outcome == .bad { result.counts.bad += 1 } else { result.counts.failed += 1 }
            // The first failures in source order, whatever order they finished in.
            if firstFailures.count < RegisterReport.listedFailures || index < firstFailures[firstFailures.count - 1].index {
                firstFailures.append((index, device))
                firstFailures.sort { $0.index < $1.index }
                if firstFailures.count > RegisterReport.listedFailures { firstFailures.removeLast() }
            }
        }
        guard index < RegisterRunner.keptResults else { return }
        if slots.count <= index { slots += Array(repeating: nil, count: index + 1 - slots.count) }
        slots[index] = device
    }

    /// The journal's failure is the stop reason, ahead of any other: outcomes may be missing from it.
    private mutating func journalFailed(_ error: LedgerError) {
        let failure = error.stepFailure
        if stop?.message.hasPrefix(failure.message) == true { return }
        let earlier = stop.map { "; before that: \($0.message)" } ?? ""
        stop = RunStop(message: failure.message + earlier, hint: failure.hint)
    }

    func progress() -> StepProgress {
        let elapsed = ContinuousClock.now - started
        return StepProgress(stepIndex: runner.stepIndex, stepId: RegisterStep.id, counts: result.counts, total: runner.total,
                            elapsed: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                            dryRun: runner.log != nil)
    }

    /// The outcome once every device has finished and been flushed.
    func outcome() -> RegisterRunner.Outcome {
        runner.control.progress?.report(progress(), final: true)
        var final = result
        final.results = slots.compactMap { $0 }
        final.failures = firstFailures.map(\.result)
        return final
    }
}
