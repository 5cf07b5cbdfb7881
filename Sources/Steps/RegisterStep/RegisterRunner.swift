import HubWire
import PipelineCore

/// Runs devices against a hub with at most `concurrency` devices — and so requests, since a device's
/// requests go one after another — in flight.
///
/// Devices are pulled from the source only as slots free up, so a streamed file is never read ahead.
/// A device failure never stops the others; a failure of the hub itself (the key is refused, the hub is
/// unreachable) stops new devices from starting, because each would fail the same way.
struct RegisterRunner: Sendable {
    /// Every device's result in source order, and why the run stopped early, if it did.
    struct Outcome {
        var results: [DeviceResult]
        var stop: RunStop?
    }

    let session: HubSession
    let concurrency: Int
    /// The dry-run request log; nil when sending for real.
    let log: RequestLog?
    let clock: WallClock

    /// Runs every device `next` yields (nil ends the source; a throw stops the run with that reason).
    func run(_ next: () throws(StepFailure) -> DeviceItem?) async -> Outcome {
        var results: [DeviceResult?] = []
        var stop: RunStop?
        await withTaskGroup(of: (Int, DeviceResult).self) { group in
            var inFlight = 0
            func collect(_ finished: (Int, DeviceResult)) {
                results[finished.0] = finished.1
                if stop == nil { stop = finished.1.stop }
                inFlight -= 1
            }
            reading: while stop == nil {
                if Task.isCancelled {
                    stop = RunStop(message: "the run was cancelled", hint: nil)
                    break reading
                }
                let item: DeviceItem?
                do throws(StepFailure) { item = try next() } catch {
                    stop = RunStop(message: error.message, hint: error.hint)
                    break reading
                }
                switch item {
                case nil:
                    break reading
                case .invalid(let device, let reason)?:
                    results.append(.failed(device, reason))
                case .work(let work)?:
                    while inFlight >= concurrency, let finished = await group.next() { collect(finished) }
                    guard stop == nil else { break reading }
                    let index = results.count
                    results.append(nil)
                    inFlight += 1
                    group.addTask { (index, await execute(work, index: index)) }
                }
            }
            while let finished = await group.next() { collect(finished) }
        }
        return Outcome(results: results.compactMap { $0 }, stop: stop)
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
