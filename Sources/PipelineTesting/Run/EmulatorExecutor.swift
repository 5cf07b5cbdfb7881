import HubEmulator
import HubHTTP
import HubWire
import Synchronization

/// A run's requests answered by the case's emulator in this process: no socket, no network. A fault that drops the
/// connection is an attempt with no answer, as over HTTP.
struct EmulatorExecutor: HTTPExecutor {
    let emulator: InProcessEmulator
    /// The template properties of each template send, by the notification id the hub gave it: what a failed
    /// payload check shows beside the payload.
    let properties: SentProperties

    func perform(_ request: HubRequest, extraHeaders: [HubHeader]) async -> AttemptOutcome {
        let answer = await emulator.answer(
            method: request.method.rawValue, url: request.url, headers: request.headers + extraHeaders,
            body: request.body)
        switch answer {
        case .response(let status, let headers, let body):
            properties.record(request, answer: headers)
            return .response(HubResponse(status: status, headers: headers, body: body))
        case .dropped:
            return .noResponse("the hub closed the connection without answering (a fault the test injects)")
        }
    }
}

/// The template properties each template send carried, by notification id.
final class SentProperties: Sendable {
    private let byNotification = Mutex<[String: String]>([:])

    /// Records `request`'s body when it is a template send the hub took (its answer names the notification).
    func record(_ request: HubRequest, answer headers: [HubHeader]) {
        let format = request.headers.first { $0.name.lowercased() == "servicebusnotification-format" }?.value
        guard format == "template",
            let location = headers.first(where: { $0.name.lowercased() == "location" })?.value,
            let path = location.split(separator: "?").first, let id = path.split(separator: "/").last
        else { return }
        byNotification.withLock { $0[String(id)] = String(decoding: request.body, as: UTF8.self) }
    }

    /// The properties the send of notification `id` carried, if it was a template send.
    func of(_ id: String) -> String? {
        byNotification.withLock { $0[id] }
    }
}
