import Foundation
import HubClient
import HubExpressions
import HubWire
import PipelineCore

/// What a send puts on the wire: its body (the template properties as JSON, or the payload rendered from a native
/// template), its headers, and the requests that carry them to the target. The step decides when, to whom and how
/// often; this says what.
struct SendMessage {
    let step: SendStep

    /// The request body: template properties as a JSON object, or the locally rendered native payload.
    func payload() throws(StepFailure) -> [UInt8] {
        try payload(properties: step.properties)
    }

    /// The body for `properties`.
    func payload(properties: [String: String]) throws(StepFailure) -> [UInt8] {
        guard let template = step.template, let body = template.body else {
            // Sorted keys keep the body stable (reports, tests, idempotency keys); NH reads it as a flat string map.
            return PropertiesJSON.encode(properties)
        }
        let rendering = TemplateRendering(body, properties: TemplateProperties(properties), platform: template.platform)
        if let error = rendering.error {
            throw StepFailure(
                "template '\(template.name)' renders an invalid \(template.platform.displayName) payload: \(error.message)",
                hint: "fix the template or the properties; nothing was sent"
            ).coded(.payloadInvalid)
        }
        return Array(rendering.payload.utf8)
    }

    /// The warnings the step's own payload draws (a property the template uses but the step does not
    /// give), as the `render` step and `pushline render` word them; none for template sends and rows.
    var warnings: [String] {
        guard case .send = step.action, let template = step.template, let body = template.body else { return [] }
        return TemplateRendering(body, properties: TemplateProperties(step.properties), platform: template.platform)
            .warnings.map { "warning: template '\(template.name)': \($0.message)" }
    }

    /// The requests, one at a time: one for an audience or broadcast, one per 1000 handles for direct
    /// lists and files (a file is streamed, never read whole).
    func requests(
        to target: SendStep.Target, body: [UInt8], now: Double, endpoint: HubEndpoint
    ) throws(StepFailure) -> () throws(StepFailure) -> HubRequest? {
        let merged = headers
        let scheduleTime = try step.scheduleTime(now: now)
        let format = step.format
        let test = step.test
        let direct = { (handles: [String]) -> HubRequest in
            handles.count == 1
                ? HubRequests.send(
                    NotificationRequest(format: format, body: body, target: .direct(handles[0]), headers: merged),
                    at: endpoint)
                : HubRequests.directBatch(
                    format: format, payload: body, payloadContentType: nil, handles: handles, headers: merged,
                    at: endpoint)
        }
        switch target {
        case .direct(let handles):
            var chunks = stride(from: 0, to: handles.count, by: NHLimits.maxDirectBatchHandles).map {
                Array(handles[$0..<min($0 + NHLimits.maxDirectBatchHandles, handles.count)])
            }.makeIterator()
            return { chunks.next().map(direct) }
        case .directFile(let file):
            let batches: () throws(StepFailure) -> [String]?
            do { batches = try file.batches(size: NHLimits.maxDirectBatchHandles) } catch {
                throw StepFailure(error.message(what: "handle file", name: file.shown)).coded(.inputRejected)
            }
            return { () throws(StepFailure) -> HubRequest? in try batches().map(direct) }
        case .broadcast, .audience:
            let tags: NotificationRequest.Target =
                if case .audience(_, let expression) = target { .tags(expression.source) } else { .broadcast }
            var single: HubRequest? = HubRequests.send(
                NotificationRequest(
                    format: format, body: body, target: tags, headers: merged, test: test, scheduleTime: scheduleTime),
                at: endpoint)
            return {
                defer { single = nil }
                return single
            }
        }
    }

    /// Template headers (e.g. apns-push-type) apply to native payloads; the step's own win.
    var headers: [HubHeader] {
        let stepNames = Set(step.headers.map { $0.name.lowercased() })
        return (step.template?.headers ?? [:]).sorted { $0.key < $1.key }
            .filter { !stepNames.contains($0.key.lowercased()) }.map { HubHeader($0.key, $0.value) } + step.headers
    }

    /// The request for one row: to its tags or everyone, or to its device handles (one, or a batch).
    func rowRequest(
        target: NotificationTargets, body: [UInt8], headers: [HubHeader], scheduleTime: Double?,
        endpoint: HubEndpoint
    ) -> HubRequest {
        switch target {
        case .broadcast, .tags:
            let tags: NotificationRequest.Target =
                if case .tags(let expression) = target { .tags(expression) } else { .broadcast }
            return HubRequests.send(
                NotificationRequest(
                    format: step.format, body: body, target: tags, headers: headers, scheduleTime: scheduleTime),
                at: endpoint)
        case .direct(let handles) where handles.count == 1:
            return HubRequests.send(
                NotificationRequest(format: step.format, body: body, target: .direct(handles[0]), headers: headers),
                at: endpoint)
        case .direct(let handles):
            return HubRequests.directBatch(
                format: step.format, payload: body, payloadContentType: nil, handles: handles, headers: headers,
                at: endpoint)
        }
    }
}

extension SendStep {
    /// What this step sends.
    var message: SendMessage { SendMessage(step: self) }
}
