import HubWire
import Synchronization

/// The requests of a dry run, for the report: the first few in full (Authorization redacted), then a count.
///
/// Devices run concurrently, so requests are ordered by (device position, request within device) rather
/// than by arrival; the same input always shows the same requests.
final class RequestLog: Sendable {
    /// Requests shown in full.
    static let shownRequests = 3

    private struct State {
        var shown: [(key: Key, lines: [String])] = []
        var total = 0
    }

    /// Device position, then request number within the device.
    struct Key: Comparable {
        let device: Int
        let request: Int

        static func < (a: Key, b: Key) -> Bool { (a.device, a.request) < (b.device, b.request) }
    }

    private let state = Mutex(State())
    private let authorization: String

    /// A log showing `authorization` (already redacted) on every request.
    init(redactedAuthorization: String) {
        authorization = redactedAuthorization
    }

    /// Notes a request about to be sent.
    func record(_ request: HubRequest, key: Key) {
        state.withLock { state in
            state.total += 1
            guard state.shown.count < Self.shownRequests || key < state.shown[state.shown.count - 1].key else { return }
            let index = state.shown.firstIndex { key < $0.key } ?? state.shown.count
            // Formatted only when shown: a dry run of a large file formats three requests, not all of them.
            state.shown.insert((key, request.dryRunLines(redactedAuthorization: authorization)), at: index)
            if state.shown.count > Self.shownRequests { state.shown.removeLast() }
        }
    }

    /// The report lines: each shown request's lines, then "… N more requests" when some were left out.
    var lines: [String] {
        state.withLock { state in
            var lines = state.shown.flatMap(\.lines)
            let rest = state.total - state.shown.count
            if rest > 0 { lines.append("… \(rest) more request\(rest == 1 ? "" : "s")") }
            return lines
        }
    }
}
