import Foundation
import PipelineCore
import Synchronization

/// One line per request that was served: time, route template, status, caller and duration, as JSON off a terminal
/// and as a short text line on one. Refused requests (4xx, and 503 when busy) are counted per route, status and
/// address and written as a few summary lines per interval, so a flood of refusals cannot fill the disk. Never the
/// query, a header value or a body, so handles, keys and passwords stay out of logs.
public struct AccessLog: Sendable {
    private let write: (@Sendable (String) -> Void)?
    private let json: Bool
    private let refusals: RefusalTally
    private let clock: @Sendable () -> Double

    /// A log that hands each line (without its newline) to `write`; `json` for JSON lines, else short text lines.
    /// Refusals are summarized every `interval` seconds by `clock`.
    public init(
        json: Bool, interval: Double = 10, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        write: @escaping @Sendable (String) -> Void
    ) {
        self.write = write
        self.json = json
        refusals = RefusalTally(interval: interval)
        self.clock = clock
    }

    private init() {
        write = nil
        json = false
        refusals = RefusalTally()
        clock = { 0 }
    }

    /// No access log.
    public static let disabled = AccessLog()

    func record(method: String, route: String, status: Int, caller: Caller?, address: String, elapsed: Duration) {
        guard let write else { return }
        let now = clock()
        if RefusalTally.isRefusal(status) {
            summarize(refusals.add(.init(route: route, status: status, address: address), now: now))
            return
        }
        summarize(refusals.flush(now: now))
        struct Line: Encodable {
            let time: String
            let route: String
            let method: String
            let status: Int
            let caller: String?
            let ms: Double
        }
        let callerName = caller.map { "\($0.kind.rawValue):\($0.name)" }
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let rounded = (milliseconds * 10).rounded() / 10
        guard json else {
            write("\(status) \(route) \(callerName ?? "-") \(rounded) ms")
            return
        }
        encodeLine(
            Line(
                time: Timestamp.iso8601(Date(timeIntervalSince1970: now)), route: route, method: method,
                status: status, caller: callerName, ms: rounded))
    }

    /// Writes the refusals counted so far (at shutdown, so the last interval is not lost).
    public func flush() {
        summarize(refusals.flush(now: clock(), force: true))
    }

    /// A line about the service rather than a request: `event` and why (e.g. why `/readyz` answers 503).
    func event(_ event: String, reason: String) {
        guard let write else { return }
        guard json else {
            write("\(event): \(reason)")
            return
        }
        struct Line: Encodable {
            let time: String
            let event: String
            let reason: String
        }
        encodeLine(Line(time: Timestamp.iso8601(Date(timeIntervalSince1970: clock())), event: event, reason: reason))
    }

    private func summarize(_ summaries: [RefusalTally.Summary]) {
        guard let write, !summaries.isEmpty else { return }
        struct Line: Encodable {
            let time: String
            let refused: Int
            let route: String
            let status: Int?
            let address: String?
            let keys: Int?
            let seconds: Double
        }
        for summary in summaries {
            let seconds = (summary.seconds * 10).rounded() / 10
            guard json else {
                if let key = summary.key {
                    write("refused ×\(summary.count) \(key.status) \(key.route) from \(key.address) in \(seconds) s")
                } else {
                    write(
                        "refused ×\(summary.count) more, of \(summary.keys) other routes, statuses and addresses, in \(seconds) s"
                    )
                }
                continue
            }
            encodeLine(
                Line(
                    time: Timestamp.iso8601(Date(timeIntervalSince1970: summary.since)), refused: summary.count,
                    route: summary.key?.route ?? "*", status: summary.key?.status, address: summary.key?.address,
                    keys: summary.key == nil ? summary.keys : nil, seconds: seconds))
        }
    }

    private func encodeLine(_ line: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(line) { write?(String(decoding: data, as: UTF8.self)) }
    }
}
