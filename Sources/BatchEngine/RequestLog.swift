import HubWire
import Synchronization

/// The requests of a dry run, for the report: the first few in full (Authorization redacted), and a count.
///
/// Items run concurrently and an item may make several requests, so requests are ordered by (item row,
/// request within the item) rather than by arrival: the same input always shows the same requests.
final class RequestLog: Sendable {
    private struct State {
        var shown: [(key: Key, lines: [String])] = []
        var total = 0
    }

    /// Item row, then request number within the item.
    struct Key: Comparable {
        let row: Int
        let request: Int

        static func < (a: Key, b: Key) -> Bool { (a.row, a.request) < (b.row, b.request) }
    }

    private let state = Mutex(State())
    private let authorization: String
    private let shownRequests: Int

    /// A log showing `shown` requests with `authorization` (already redacted) on each.
    init(redactedAuthorization: String, shown: Int) {
        authorization = redactedAuthorization
        shownRequests = shown
    }

    /// Notes a request about to be sent.
    func record(_ request: HubRequest, key: Key) {
        state.withLock { state in
            state.total += 1
            guard state.shown.count < shownRequests || key < state.shown[state.shown.count - 1].key else { return }
            let index = state.shown.firstIndex { key < $0.key } ?? state.shown.count
            // Formatted only when shown: a dry run of a large file formats three requests, not all of them.
            state.shown.insert((key, request.dryRunLines(redactedAuthorization: authorization)), at: index)
            if state.shown.count > shownRequests { state.shown.removeLast() }
        }
    }

    /// The shown requests' lines, and how many requests there were in all.
    var snapshot: (lines: [String], total: Int) {
        state.withLock { state in (state.shown.flatMap(\.lines), state.total) }
    }
}
