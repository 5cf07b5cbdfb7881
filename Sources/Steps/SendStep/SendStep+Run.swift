import Foundation
import HubExpressions
import HubWire
import PipelineCore

extension SendStep {
    /// Builds the request(s), sends them through the hub session, and reports the notification id(s).
    public func run(in context: StepContext) async throws -> StepResult {
        let session = try context.session(for: hub).with(policy: policy)
        let body = try payload()
        let requests = try requests(body: body, now: context.clock.now().timeIntervalSince1970, endpoint: session.endpoint)
        var lines: [String] = []
        var sent: [ReportValue] = []
        var ids: [String] = []
        for request in requests {
            let result = try await session.perform(request)
            let id = result.response.header("Location").flatMap(NotificationLocation.notificationId(fromLocation:))
            if let id { ids.append(id) }
            var fields = [ReportField("request", .string(request.summary)), ReportField("status", .int(result.response.status)),
                          ReportField("trackingId", .string(result.trackingId)), ReportField("attempts", .int(result.attempts)),
                          ReportField("elapsedMs", .int(result.elapsedMs)), ReportField("notificationId", id.map(ReportValue.string) ?? .null)]
            if test, let outcome = try? NotificationOutcome(parsing: result.response.bodyText) {
                fields.append(ReportField("outcome", Self.report(outcome)))
                lines += outcome.results.map { "\($0.platform) \($0.pnsHandle): \($0.outcome)" }
            }
            if context.isDryRun {
                lines += request.dryRunLines(redactedAuthorization: session.redactedAuthorization)
            }
            sent.append(.object(fields))
        }
        let what = "\(format == "template" ? "a template" : "an \(format)") notification \(describeTarget())"
        let summary = context.isDryRun
            ? "would send \(what) on hub '\(hub.name)' (\(requests.count) request\(requests.count == 1 ? "" : "s"), nothing sent)"
            : "sent \(what) on hub '\(hub.name)'" + (ids.isEmpty ? "" : ": notification \(ids.joined(separator: ", "))")
        return StepResult(summary: summary, lines: lines, data: .object([
            ReportField("hub", .string(hub.name)), ReportField("format", .string(format)),
            ReportField("notificationIds", .array(ids.map(ReportValue.string))), ReportField("requests", .array(sent)),
        ]))
    }

    /// The request body: template properties as a JSON object, or the locally rendered native payload.
    func payload() throws(StepFailure) -> [UInt8] {
        guard let template, let body = template.body else {
            // Sorted keys keep the body stable (reports, tests); NH reads it as a flat string map.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Array((try? encoder.encode(properties)) ?? Data("{}".utf8))
        }
        let rendered = body.render(TemplateProperties(properties))
        let findings = TemplateLint.check(rendered, format: body.format, byteLimit: template.platform.payloadLimit)
        if let error = findings.first(where: { $0.severity == .error }) {
            throw StepFailure("template '\(template.name)' renders an invalid \(template.platform.displayName) payload: \(error.message)",
                              hint: "fix the template or the properties; nothing was sent")
        }
        return Array(rendered.utf8)
    }

    /// One request, or one per 1000 handles for direct lists.
    func requests(body: [UInt8], now: Double, endpoint: HubEndpoint) throws(StepFailure) -> [HubRequest] {
        // Template headers (e.g. apns-push-type) apply to native payloads; the step's own win.
        let stepNames = Set(headers.map { $0.name.lowercased() })
        let merged = (template?.headers ?? [:]).sorted { $0.key < $1.key }
            .filter { !stepNames.contains($0.key.lowercased()) }.map { HubHeader($0.key, $0.value) } + headers
        let scheduleTime: Double? = switch schedule {
        case .at(let time): time
        case .after(let seconds): now + Double(seconds)
        case nil: nil
        }
        if let scheduleTime {
            guard scheduleTime > now, scheduleTime - now <= Double(NHLimits.maxScheduleAheadSeconds) else {
                throw StepFailure("the schedule time \(ScheduleTime.format(scheduleTime)) UTC is not within the next 7 days",
                                  hint: "NH schedules at most 7 days ahead; use `schedule: in 2h` for a delay")
            }
        }
        switch target {
        case .direct(let handles) where handles.count > 1:
            return stride(from: 0, to: handles.count, by: NHLimits.maxDirectBatchHandles).map { start in
                let chunk = Array(handles[start..<min(start + NHLimits.maxDirectBatchHandles, handles.count)])
                return HubRequests.directBatch(format: format, payload: body, payloadContentType: nil, handles: chunk,
                                               headers: merged, at: endpoint)
            }
        case .direct(let handles):
            let notification = NotificationRequest(format: format, body: body, target: .direct(handles[0]), headers: merged)
            return [HubRequests.send(notification, at: endpoint)]
        case .broadcast:
            let notification = NotificationRequest(format: format, body: body, target: .broadcast, headers: merged, test: test,
                                                   scheduleTime: scheduleTime)
            return [HubRequests.send(notification, at: endpoint)]
        case .audience(_, let expression):
            let notification = NotificationRequest(format: format, body: body, target: .tags(expression.source), headers: merged,
                                                   test: test, scheduleTime: scheduleTime)
            return [HubRequests.send(notification, at: endpoint)]
        }
    }

    private func describeTarget() -> String {
        switch target {
        case .audience(let name?, _): return "to audience '\(name)'"
        case .audience(nil, let expression): return "to '\(expression.source)'"
        case .broadcast: return "to every device"
        case .direct(let handles): return handles.count == 1 ? "to one device" : "to \(handles.count) devices"
        }
    }

    private static func report(_ outcome: NotificationOutcome) -> ReportValue {
        .object([
            ReportField("success", .int(outcome.success)), ReportField("failure", .int(outcome.failure)),
            ReportField("results", .array(outcome.results.map {
                .object([ReportField("platform", .string($0.platform)), ReportField("handle", .string($0.pnsHandle)),
                         ReportField("outcome", .string($0.outcome))])
            })),
        ])
    }
}
