import Foundation
import HTTPServing
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// An OTLP/HTTP receiver on loopback for the trace tests: it keeps every span POSTed to `/v1/traces` as JSON
/// (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and answers as a collector does.
package final class OTLPReceiver: Sendable {
    /// One span as it arrived, ids hex as W3C writes them (swift-otel's JSON carries them base64).
    package struct ReceivedSpan: Sendable {
        package let name: String
        package let kind: Int
        package let traceId: String
        package let spanId: String
        package let parentSpanId: String?
        package let attributes: [String: String]
        package let failed: Bool
    }

    /// What arrived.
    private final class Received: Sendable {
        let bodies = Mutex<[Data]>([])
        let strays = Mutex(0)
    }

    private let server: HTTPServer<BasicRequestContext>
    private let received = Received()
    private let task: Mutex<Task<Void, any Error>?> = Mutex(nil)

    /// Requests that were not a POST of spans.
    package var strays: Int { received.strays.withLock { $0 } }

    package init() {
        let received = self.received
        server = HTTPServer(
            options: ServerOptions(host: "127.0.0.1", port: 0, serverName: "otlp", quiet: true),
            responder: CallbackResponder { (request: Request, _: BasicRequestContext) in
                var request = request
                guard request.method == .post, request.uri.path == "/v1/traces",
                    let body = try? await request.collectBody(upTo: 16 << 20)
                else {
                    received.strays.withLock { $0 += 1 }
                    return Response(status: .notFound)
                }
                received.bodies.withLock { $0.append(Data(body.readableBytesView)) }
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
            })
    }

    /// Starts listening; returns the endpoint for `OTEL_EXPORTER_OTLP_ENDPOINT`.
    package func start() async throws -> String {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let server = self.server
        task.withLock {
            $0 = Task {
                defer { continuation.finish() }
                try await server.run { continuation.yield($0) }
            }
        }
        for await port in ports { return "http://127.0.0.1:\(port)" }
        throw CocoaError(.fileReadUnknown)
    }

    package func stop() async {
        await server.shutdown()
        _ = try? await task.withLock { $0 }?.value
    }

    /// Every span received so far.
    package var spans: [ReceivedSpan] {
        received.bodies.withLock { $0 }.flatMap(Self.spans(in:))
    }

    /// Export requests received so far.
    package var requests: Int { received.bodies.withLock { $0.count } }

    private static func spans(in body: Data) -> [ReceivedSpan] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [] }
        var result: [ReceivedSpan] = []
        for resource in object["resourceSpans"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    var attributes: [String: String] = [:]
                    for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                        guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any]
                        else { continue }
                        if let text = value["stringValue"] as? String {
                            attributes[key] = text
                        } else if let number = value["intValue"] {
                            attributes[key] = "\(number)"
                        } else if let flag = value["boolValue"] as? Bool {
                            attributes[key] = flag ? "true" : "false"
                        } else if let array = (value["arrayValue"] as? [String: Any])?["values"] as? [[String: Any]] {
                            attributes[key] = array.compactMap { $0["stringValue"] as? String }.joined(separator: ",")
                        }
                    }
                    let status = (span["status"] as? [String: Any])?["code"] as? Int
                    result.append(
                        ReceivedSpan(
                            name: span["name"] as? String ?? "", kind: span["kind"] as? Int ?? 0,
                            traceId: hex(span["traceId"]), spanId: hex(span["spanId"]),
                            parentSpanId: (span["parentSpanId"] as? String).flatMap { $0.isEmpty ? nil : hex($0) },
                            attributes: attributes, failed: status == 2))
                }
            }
        }
        return result
    }

    /// Base64 (swift-otel's JSON) or hex (the OTLP spec's) as hex.
    private static func hex(_ value: Any?) -> String {
        guard let text = value as? String else { return "" }
        if text.count == 32 || text.count == 16, text.allSatisfy(\.isHexDigit) { return text.lowercased() }
        guard let data = Data(base64Encoded: text) else { return text }
        return data.map { String(format: "%02x", $0) }.joined()
    }
}
