import Foundation
import HTTPServing
import HTTPTypes
import HubWire
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// Answers NH requests without a socket, through the emulator's whole router and middleware (the token check, faults,
/// latency, NH's error bodies): what `pushline test` runs a pipeline against, one emulator per test case, with no
/// port to take and nothing to reach over a network.
package struct InProcessEmulator: Sendable {
    /// What an answer came to.
    package enum Answer: Sendable, Equatable {
        /// A response, as the emulator would have written it.
        case response(status: Int, headers: [HubHeader], body: [UInt8])
        /// A fault dropped the connection: the request was read and never answered.
        case dropped
    }

    private let responder: RouterResponder<EmulatorContext>

    /// A client of `emulator`'s routes and devices, with these faults and this latency instead of its configuration's
    /// (a test case changes them between runs), a rate below 1 decided by `dice`; URLs in its answers (Location, entry ids) are `http://` ones.
    package init(_ emulator: Emulator, faults: [FaultRule], latency: LatencyRule?, dice: FaultDice = .system) {
        var configuration = emulator.configuration
        configuration.faults = faults
        configuration.latency = latency
        configuration.faultDice = dice
        responder = EmulatorResponder(store: emulator.store, configuration: configuration, now: emulator.clock)
            .router().buildResponder()
    }

    /// The answer to `method` on `url` with `headers` and `body`, as if from loopback. The URL's authority is the
    /// request's (a token signed for it is accepted, as for a served emulator); its host is never contacted.
    package func answer(method: String, url: String, headers: [HubHeader], body: [UInt8]) async -> Answer {
        guard let parts = URLComponents(string: url) else {
            return .response(status: 400, headers: [], body: Array("not a URL: \(url)".utf8))
        }
        let authority = parts.percentEncodedHost.map { host in parts.port.map { "\(host):\($0)" } ?? host }
        let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        let target = parts.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        var fields = HTTPFields()
        for header in headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        fields[.contentLength] = String(body.count)
        let head = HTTPRequest(
            method: HTTPRequest.Method(method) ?? .get, scheme: parts.scheme ?? "http", authority: authority,
            path: target, headerFields: fields)
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
        let dropped = Atomic<Bool>(false)
        let peer = PeerConnection(ip: "127.0.0.1") { dropped.store(true, ordering: .relaxed) }
        let response: Response
        do {
            response = try await responder.respond(
                to: request, context: EmulatorContext(peer: peer, logger: Self.logger))
        } catch {
            // `NHAnswers` answers every refusal itself; an error here is the emulator's own fault.
            return .response(status: 500, headers: [], body: Array("\(error)".utf8))
        }
        if dropped.load(ordering: .relaxed) { return .dropped }
        let collector = BodyCollector()
        try? await response.body.write(collector)
        let answered = response.headers.map { HubHeader($0.name.rawName, $0.value) }
        return .response(status: response.status.code, headers: answered, body: collector.bytes)
    }

    private static let logger = Logger(label: "pushline.emulator.in-process")

    private final class BodyCollector: ResponseBodyWriter, Sendable {
        private let stored = Mutex<[UInt8]>([])
        var bytes: [UInt8] { stored.withLock { $0 } }
        func write(_ buffer: ByteBuffer) async throws { stored.withLock { $0 += Array(buffer: buffer) } }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
