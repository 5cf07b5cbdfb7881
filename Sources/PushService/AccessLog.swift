import Foundation
import HTTPServing
import PipelineCore
import Synchronization

/// One line per request: time, route template, status, caller and duration, as JSON off a terminal and as a short
/// text line on one. Never the query, a header value or a body, so handles, keys and passwords stay out of logs.
public struct AccessLog: Sendable {
    private let write: (@Sendable (String) -> Void)?
    private let json: Bool

    /// A log that hands each line (without its newline) to `write`; `json` for JSON lines, else short text lines.
    public init(json: Bool, write: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.json = json
    }

    private init() {
        write = nil
        json = false
    }

    /// No access log.
    public static let disabled = AccessLog()

    func record(request: ServedRequest, route: Route, status: Int, caller: Caller?, elapsed: Duration) {
        guard let write else { return }
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
            write("\(status) \(route.name) \(callerName ?? "-") \(rounded) ms")
            return
        }
        let line = Line(time: RunReport.timestamp(Date()), route: route.name, method: request.method.rawValue,
                        status: status, caller: callerName, ms: rounded)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(line) { write(String(decoding: data, as: UTF8.self)) }
    }
}
