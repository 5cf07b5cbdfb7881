import Foundation
import HubEmulator
import HubWire

/// A case's runs as its snapshot holds them: the requests each run made to the hub (method, path, the headers the
/// pipeline chose, body) and what each device received. Nothing that changes from one run to the next is in it: no
/// token, tracking id or user agent (the transport adds those), and every id the hub made up (a registration's, a
/// notification's) is `<hub-id>`. Requests and deliveries are sorted, so concurrency does not reorder them.
enum SnapshotText {
    /// The snapshot of `runs` (a run's label, its requests and its deliveries).
    static func render(_ runs: [(label: String, exchanges: [ExchangeLog.Exchange], deliveries: [Delivery])]) -> String {
        let hubIds = Set(
            runs.flatMap(\.exchanges).compactMap(\.location).map(ExchangeLog.id(in:)).filter { !$0.isEmpty })
        func stable(_ text: String) -> String {
            hubIds.reduce(text) { $0.replacingOccurrences(of: $1, with: "<hub-id>") }
        }
        var text = ""
        for (index, run) in runs.enumerated() {
            text += "-- \(run.label.isEmpty ? "run \(index + 1)" : run.label)\n"
            let requests = run.exchanges.map { exchange in
                let request = exchange.request
                var lines = ["> \(request.method.rawValue) \(stable(path(of: request.url)))"]
                lines += request.headers.sorted { $0.name.lowercased() < $1.name.lowercased() }.map {
                    ">   \($0.name): \(stable($0.value))"
                }
                let body = String(decoding: request.body, as: UTF8.self)
                lines +=
                    body.isEmpty
                    ? []
                    : body.split(separator: "\n", omittingEmptySubsequences: false).map {
                        ">   | \(stable(String($0)))"
                    }
                return lines.joined(separator: "\n")
            }.sorted()
            for request in requests { text += request + "\n" }
            let deliveries = run.deliveries.map { delivery in
                let device = delivery.installationId ?? delivery.registrationId ?? delivery.pushChannel
                var line = "< \(stable(device)) (\(delivery.platform)"
                line += delivery.template.map { ", template \($0)" } ?? ""
                line += "): \(delivery.payload)"
                for (name, value) in delivery.headers.sorted(by: { $0.key < $1.key }) {
                    line += "\n<   \(name): \(stable(value))"
                }
                return line
            }.sorted()
            for delivery in deliveries { text += delivery + "\n" }
        }
        return text
    }

    /// A URL without its scheme and host: the case's emulator has a made-up one.
    static func path(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
    }
}
