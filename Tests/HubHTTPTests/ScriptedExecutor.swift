import HubWire
import Synchronization

@testable import HubHTTP

/// Plays back attempt outcomes in order and records what was sent.
final class ScriptedExecutor: HTTPExecutor {
    private let script: Mutex<[AttemptOutcome]>
    private let sent = Mutex<[[HubHeader]]>([])

    init(_ outcomes: [AttemptOutcome]) {
        script = Mutex(outcomes)
    }

    func perform(_ request: HubRequest, extraHeaders: [HubHeader]) async -> AttemptOutcome {
        sent.withLock { $0.append(extraHeaders) }
        return script.withLock { $0.isEmpty ? .response(HubResponse(status: 599)) : $0.removeFirst() }
    }

    /// The extra headers of every attempt.
    var attempts: [[HubHeader]] { sent.withLock { $0 } }
}

/// Records sleeps instead of sleeping.
final class SleepRecorder: Sendable {
    private let slept = Mutex<[Double]>([])
    var sleeps: [Double] { slept.withLock { $0 } }
    var sleep: @Sendable (Double) async -> Void { { seconds in self.slept.withLock { $0.append(seconds) } } }
}

let endpoint = HubEndpoint(hubBaseURL: "http://127.0.0.1:1/myhub/", hub: "myhub")
let send = HubRequests.send(
    NotificationRequest(format: "template", body: Array(#"{"m":"x"}"#.utf8), target: .tags("a")), at: endpoint)
let put = HubRequests.putInstallation(
    Installation(installationId: "i1", platform: "apns", pushChannel: .handle("AB")), at: endpoint)

func response(_ status: Int, _ headers: [HubHeader] = []) -> AttemptOutcome {
    .response(HubResponse(status: status, headers: headers))
}

func transport(_ executor: ScriptedExecutor, _ sleeps: SleepRecorder, maxConcurrent: Int = 16) -> RetryingTransport {
    RetryingTransport(
        executor: executor, maxConcurrent: maxConcurrent, sleep: sleeps.sleep, jitter: { 1 }, now: { 1_700_000_000 })
}
