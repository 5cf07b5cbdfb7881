import Engine
import Foundation
import RunFlow
import RunStore
import Testing

/// The exit code a run ends with, by how it ended (docs/reference/exit-codes.md): what cron, systemd and an
/// orchestrator act on.
@Suite("RunExit: a run's exit code by its cause")
struct RunExitTests {
    @Test(
        "each way a run ends has its code, whether or not a signal is named",
        arguments: [
            (RunReport.Status.succeeded, Int32(0)), (.partial, 3), (.rejected, 2), (.failed, 1), (.undelivered, 4),
        ])
    func byStatus(_ status: RunReport.Status, _ code: Int32) {
        #expect(RunExit.of(status, signal: nil) == code)
        // A signal that came when the run had ended otherwise (a step failed, every item sent) does not change its code:
        // only a run the signal stopped is `interrupted`.
        #expect(RunExit.of(status, signal: SIGTERM) == code)
        #expect(RunExit.of(status, signal: SIGINT) == code)
    }

    @Test("a run stopped by a signal ends with 128 + the signal: 130 for SIGINT, 143 for SIGTERM")
    func interrupted() {
        #expect(RunExit.of(.interrupted, signal: SIGINT) == 130)
        #expect(RunExit.of(.interrupted, signal: SIGTERM) == 143)
        #expect(RunExit.interrupted(signal: SIGINT) == 130 && RunExit.interrupted(signal: SIGTERM) == 143)
    }

    @Test(
        "a run stopped by a stop request with no signal of its own (pushline test's crash point) ends as SIGTERM's 143")
    func interruptedWithoutASignal() {
        #expect(RunExit.of(.interrupted, signal: nil) == 143)
    }

    @Test(
        "a run that could not use its store: 78 when it is set up wrongly, 75 when it cannot be reached now, 1 otherwise",
        arguments: [
            (RunStoreError.Kind.configuration, Int32(78)), (.unavailable, 75), (.failure, 1),
        ])
    func byStoreError(_ kind: RunStoreError.Kind, _ code: Int32) {
        #expect(RunExit.of(kind) == code)
    }

    @Test("the named codes are the documented ones, each distinct")
    func namedCodes() {
        let codes = [
            RunExit.success, RunExit.failure, RunExit.invalidInput, RunExit.partial, RunExit.undelivered,
            RunExit.locked, RunExit.configuration,
        ]
        #expect(codes == [0, 1, 2, 3, 4, 75, 78])
        #expect(Set(codes).count == codes.count)
        // No status of a run that was not stopped shares a code with a signal's.
        let statuses: [RunReport.Status] = [.succeeded, .partial, .undelivered, .failed, .rejected]
        #expect(statuses.allSatisfy { RunExit.of($0, signal: nil) < 128 })
    }
}
