import BatchEngine
import HubWire
import PipelineCore

/// Runs devices against a hub with at most `concurrency` devices — and so requests, since a device's
/// requests go one after another — in flight.
///
/// Devices are pulled from the source only as slots free up, so a streamed file is never read ahead.
/// A device failure never stops the others; a failure of the hub itself (the key is refused, the hub is
/// unreachable) stops new devices from starting, because each would fail the same way. So does a stop
/// signal; devices in flight finish. With a journal, each device is marked `sending` before its first
/// request and its outcome is recorded before it counts, and a resumed run skips what was done.
struct RegisterRunner: Sendable {
    /// Device results kept for the report; the journal has every device.
    static let keptResults = 1000

    /// What the devices came to.
    struct Outcome {
        /// The first `keptResults` devices' results, in source order.
        var results: [DeviceResult] = []
        /// The first failures (at most `RegisterReport.listedFailures`), in source order.
        var failures: [DeviceResult] = []
        /// Devices by outcome: created, updated and deleted are accepted.
        var counts = ItemCounts()
        /// Why the step stopped starting devices, if it did.
        var stop: RunStop?
        /// True when a stop signal ended the step before its last device.
        var interrupted = false
        /// `--again`: devices done again although another run did them within the dedupe window.
        var resent = 0
    }

    let session: HubSession
    let concurrency: Int
    /// The dry-run request log; nil when sending for real.
    let log: RequestLog?
    let clock: WallClock
    /// The run journal's view; nil for dry runs and runs without a journal.
    var journal: DeviceLedger?
    /// Paces requests (`rate:`) and slows down on 429.
    var governor = RateGovernor(ceiling: nil)
    /// Stop signal and progress.
    var control = BatchControl()
    /// The step's index, for progress.
    var stepIndex = 0
    /// The number of devices, when known before they are read.
    var total: Int?
    /// Seconds a device done by a run of the pipeline keeps it from being done again; 0 for off.
    var dedupeWindow: Double = 0

    /// The device's idempotency key: its operation and content on this hub.
    func key(_ work: DeviceWork) -> String {
        IdempotencyKey.of("device", work.contentParts, hub: session)
    }

    /// Runs every device `next` yields (nil ends the source; a throw stops the run with that reason).
    func run(_ next: () throws(StepFailure) -> DeviceItem?) async -> Outcome {
        var tally = DeviceTally(runner: self)
        await withTaskGroup(of: (Int, DeviceResult).self) { group in
            var inFlight = 0
            reading: while tally.stop == nil {
                if Task.isCancelled {
                    tally.stop = RunStop(message: "the run was cancelled", hint: nil)
                    break reading
                }
                if control.stop.isRequested {
                    tally.interrupted = true
                    break reading
                }
                let item: DeviceItem?
                do throws(StepFailure) { item = try next() } catch {
                    tally.stop = RunStop(message: error.message, hint: error.hint)
                    break reading
                }
                guard let item else { break reading }
                let index = tally.begin()
                let work: DeviceWork
                let reusedId: String?
                switch item {
                case .invalid(let device, let reason):
                    await tally.invalid(index, device: device, reason: reason)
                    continue reading
                case .work(let given):
                    guard let resumed = await tally.resume(given, index: index) else { continue reading }
                    (work, reusedId) = resumed
                }
                while inFlight >= concurrency, let finished = await group.next() {
                    inFlight -= 1
                    await tally.finish(finished)
                }
                guard tally.stop == nil else { break reading }
                if control.stop.isRequested {
                    tally.interrupted = true
                    break reading
                }
                guard await tally.markSending(work, index: index, reusedId: reusedId) else { break reading }
                inFlight += 1
                group.addTask { (index, await execute(work, index: index)) }
            }
            // Requests already written finish and are recorded, whatever stopped admission.
            while let finished = await group.next() { await tally.finish(finished) }
            await tally.flush()
        }
        return tally.outcome()
    }

    /// Sends one device's requests and says how it went.
    func execute(_ work: DeviceWork, index: Int) async -> DeviceResult {
        var sender = RequestSender(runner: self, device: index)
        let result: DeviceResult
        switch work.job {
        case .put(let installation):
            result = await sender.simple(HubRequests.putInstallation(installation, at: session.endpoint), work, .created)
        case .patch(let id, let operations):
            result = await sender.simple(HubRequests.patchInstallation(id: id, operations: operations, at: session.endpoint), work, .updated)
        case .delete(let id):
            result = await sender.simple(HubRequests.deleteInstallation(id: id, at: session.endpoint), work, .deleted)
        case .register(let job):
            result = await sender.register(job, work)
        }
        guard let origin = work.origin, let reason = result.reason, !reason.hasPrefix(origin) else { return result }
        // Reasons about a file row name the row, whatever went wrong with it.
        var located = result
        located.reason = "\(origin): \(reason)"
        return located
    }
}
