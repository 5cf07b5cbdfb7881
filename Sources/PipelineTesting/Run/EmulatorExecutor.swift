import HubEmulator
import HubHTTP
import HubWire
import PipelineCore
import Synchronization

/// A run's requests answered by the case's emulator in this process: no socket, no network. A fault that drops the
/// connection is an attempt with no answer, as over HTTP.
struct EmulatorExecutor: HTTPExecutor {
    let emulator: InProcessEmulator
    /// Where every request that reached the hub is recorded.
    let log: ExchangeLog
    /// Where the run is cut off, if it is.
    var crash: CrashPoint?

    func perform(_ request: HubRequest, extraHeaders: [HubHeader]) async -> AttemptOutcome {
        let fate = crash?.next() ?? .forward
        if fate == .refuse { return .notSent("the run was cut off (crash-after)") }
        let answer = await emulator.answer(
            method: request.method.rawValue, url: request.url, headers: request.headers + extraHeaders,
            body: request.body)
        if fate == .forwardAndLoseAnswer { return .noResponse("the run was cut off (crash-after)") }
        switch answer {
        case .response(let status, let headers, let body):
            log.record(request, answer: headers)
            return .response(HubResponse(status: status, headers: headers, body: body))
        case .dropped:
            return .noResponse("the hub closed the connection without answering (a fault the test injects)")
        }
    }
}

/// Every request a case's runs made that reached the hub, with the hub's answer's `Location`: what a failed payload
/// check shows beside the payload (the template properties a send carried) and what a snapshot holds.
final class ExchangeLog: Sendable {
    /// One request and where the hub said its result is.
    struct Exchange: Sendable {
        let request: HubRequest
        let location: String?
    }

    private let exchanges = Mutex<[Exchange]>([])

    /// Records `request` and the `Location` of the hub's answer.
    func record(_ request: HubRequest, answer headers: [HubHeader]) {
        let location = headers.first { $0.name.lowercased() == "location" }?.value
        exchanges.withLock { $0.append(Exchange(request: request, location: location)) }
    }

    /// How many exchanges there are so far (a run's are those after the count taken at its start).
    var count: Int { exchanges.withLock { $0.count } }

    /// The exchanges from `start` on.
    func exchanges(from start: Int) -> [Exchange] {
        exchanges.withLock { Array($0[min(start, $0.count)...]) }
    }

    /// The properties the send of notification `id` carried, if it was a template send.
    func properties(of id: String) -> String? {
        exchanges.withLock { all in
            all.first { exchange in
                exchange.location.map(Self.id(in:)) == id
                    && exchange.request.headers.contains {
                        $0.name.lowercased() == "servicebusnotification-format" && $0.value == "template"
                    }
            }.map { String(decoding: $0.request.body, as: UTF8.self) }
        }
    }

    /// The id a `Location` ends with (`…/messages/ID?api-version=…` → ID).
    static func id(in location: String) -> String {
        String(location.split(separator: "?").first?.split(separator: "/").last ?? "")
    }
}

/// Where a run is cut off, as kill -9 would cut it: the hub takes `after` requests; the last of them is answered
/// into the void (its fate unknown to the run), the run is told to stop at once, and nothing after it reaches the hub.
final class CrashPoint: Sendable {
    /// What becomes of a request.
    enum Fate {
        /// It reaches the hub and its answer comes back.
        case forward
        /// It reaches the hub; its answer is lost.
        case forwardAndLoseAnswer
        /// It never reaches the hub.
        case refuse
    }

    /// How many requests the hub takes.
    let after: Int
    /// The run's stop: requested at the cut.
    let stop = StopSignal()
    private let taken = Atomic<Int>(0)

    init(after: Int) {
        self.after = after
    }

    /// True once the run made enough requests to be cut off.
    var wasReached: Bool { taken.load(ordering: .relaxed) >= after }

    /// The fate of the next request.
    func next() -> Fate {
        let number = taken.add(1, ordering: .relaxed).newValue
        if number < after { return .forward }
        if number == after {
            stop.request()
            return .forwardAndLoseAnswer
        }
        return .refuse
    }
}
