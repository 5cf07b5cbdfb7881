import Foundation
import HTTPTypes
import HubWire
import Hummingbird

extension EmulatorResponder {
    /// `POST messages`: tag/broadcast send, `?direct` single-device send, `?test` debug send.
    func send(_ call: Call) async throws -> Response {
        let notification = try await outgoing(call)
        if call.query.has("direct") {
            guard case .native(let platform) = notification.format else {
                throw EmulatorError.badRequest(
                    "Direct sends need a native format; template notifications need a registration.")
            }
            guard let handle = call.headers[.deviceHandle], !handle.isEmpty else {
                throw EmulatorError.badRequest("A direct send needs the ServiceBusNotification-DeviceHandle header.")
            }
            let id = await store.directSend(notification, platform: platform, handles: [handle], hub: call.hub)
            return created(call, location: "messages/\(id)", extraQuery: "&direct")
        }
        let prepared = try PreparedSend(notification)
        if call.query.has("test") {
            let result = await store.send(prepared, hub: call.hub, limit: NHLimits.maxTestSendDevices)
            return created(call, location: "messages/\(result.notificationId)", outcome: result.outcome.xml())
        }
        let result = await store.send(prepared, hub: call.hub)
        return created(call, location: "messages/\(result.notificationId)")
    }

    /// `POST messages/$batch?direct`: one native payload to up to 1000 handles (multipart/mixed).
    func batchSend(_ call: Call) async throws -> Response {
        guard call.query.has("direct") else {
            throw EmulatorError.badRequest("Batch sends must be direct: add &direct.")
        }
        guard configuration.tier != .free else {
            throw EmulatorError(403, "Direct batch sends need the Basic or Standard tier.")
        }
        guard case .native(let platform)? = try format(call) else {
            throw EmulatorError.badRequest("Direct batch sends need a native ServiceBusNotification-Format.")
        }
        let text = try await body(call, limit: NHLimits.maxRequestBytes)
        let batch: DirectBatchRequest
        do {
            batch = try DirectBatchRequest(
                parsing: Array(text.utf8), contentType: call.headers[.contentType] ?? "")
        } catch {
            throw EmulatorError.badRequest("The batch body is invalid: \(error.message)")
        }
        guard batch.devices.count <= NHLimits.maxDirectBatchHandles else {
            throw EmulatorError.badRequest(
                "A direct batch may hold at most \(NHLimits.maxDirectBatchHandles) device handles; this one has \(batch.devices.count)."
            )
        }
        let headers = platformHeaders(call.headers)
        try Self.checkRoutingHeaders(.native(platform), headers)
        if let problem = NativePayload.problem(batch.notification, platform: platform, headers: headers) {
            throw EmulatorError.badRequest(problem)
        }
        let notification = OutgoingNotification(
            format: .native(platform), tags: nil, body: String(decoding: batch.notification, as: UTF8.self),
            headers: headers)
        let id = await store.directSend(notification, platform: platform, handles: batch.devices, hub: call.hub)
        return created(call, location: "messages/$batch/\(id)", extraQuery: "&direct")
    }

    /// `POST schedulednotifications`: kept until `ServiceBusNotification-ScheduleTime` (≤ 7 days ahead).
    func scheduleSend(_ call: Call) async throws -> Response {
        guard configuration.tier == .standard else {
            throw EmulatorError(403, "Scheduled notifications need the Standard tier.")
        }
        guard let header = call.headers[.scheduleTime] else {
            throw EmulatorError.badRequest("A scheduled send needs the ServiceBusNotification-ScheduleTime header.")
        }
        guard let due = ScheduleTime.parse(header) else {
            throw EmulatorError.badRequest(
                "ServiceBusNotification-ScheduleTime '\(header)' is not a time like 2026-11-22T10:00:00 (UTC).")
        }
        let now = await store.currentDate.timeIntervalSince1970
        guard due > now else { throw EmulatorError.badRequest("The schedule time is in the past.") }
        guard due - now <= Double(NHLimits.maxScheduleAheadSeconds) else {
            throw EmulatorError.badRequest("Notifications can be scheduled at most 7 days ahead.")
        }
        let notification = try await outgoing(call)
        _ = try PreparedSend(notification)
        let id = await store.schedule(notification, due: due, hub: call.hub)
        return created(call, location: "schedulednotifications/\(id)")
    }

    func cancelScheduled(_ call: Call, id: String) async throws -> Response {
        try await store.cancelScheduled(id: id, hub: call.hub)
        return Self.empty(.ok)
    }

    /// `GET messages/{id}`: per-message telemetry (Standard tier; below it, the 403 the REST reference gives). The state
    /// moves on with time (`Enqueued`, `Processing`, then final); the counts, the end time and the PNS error link come
    /// with the final state.
    func telemetry(_ call: Call, id: String) async throws -> Response {
        guard configuration.tier == .standard else {
            throw EmulatorError(
                403, "Request rejected because this feature is not enabled for your SKU. Upgrade to Standard.")
        }
        guard let record = await store.notificationRecord(id: id) else {
            throw EmulatorError.notFound(
                "Telemetry does not exist: the notification id is invalid, or the message has not progressed far enough in processing"
            )
        }
        let now = await store.currentDate
        let state = record.state(at: now, delay: configuration.telemetryDelay)
        var details = NotificationDetails(notificationId: record.id, state: state)
        details.location = call.url("messages/\(record.id)")
        details.enqueueTime = record.enqueueTime
        details.notificationBody = record.body
        details.tags = record.tags
        details.targetPlatforms = record.outcomes.keys.map(\.notificationFormat).sorted().joined(separator: ",")
        if state != .enqueued {
            details.startTime = record.enqueueTime
        }
        if state == record.final {
            details.endTime = await store.timestamp(record.enqueuedAt.addingTimeInterval(configuration.telemetryDelay))
            for (platform, counts) in record.outcomes {
                details.outcomeCounts[platform.outcomeCountsPrefix, default: []] += counts.sorted { $0.key < $1.key }
                    .map { NotificationDetails.OutcomeCount(name: $0.key, count: $0.value) }
            }
            // NH links a blob of per-device errors when the PNS refused any; the emulator's names the side channel.
            if !record.pnsErrors.isEmpty {
                details.pnsErrorDetailsUri = "\(call.base)/_emulator/pns-errors/\(record.id)"
            }
        }
        return response(.ok, contentType: "application/xml; charset=utf-8", body: details.xml())
    }

    /// Reads format, tags, body and platform headers of a send, checking the 64 KB limit. Without
    /// `ServiceBusNotification-Format` a send is a template send: the REST reference marks the header optional for those.
    private func outgoing(_ call: Call) async throws -> OutgoingNotification {
        let format = try format(call) ?? .template
        let tags = call.headers[.notificationTags]
        if let tags, tags.trimmingCharacters(in: .whitespaces).isEmpty {
            throw EmulatorError.badRequest("ServiceBusNotification-Tags is empty; leave the header out to broadcast.")
        }
        let text = try await body(call, limit: NHLimits.maxRequestBytes)
        let headers = platformHeaders(call.headers)
        try Self.checkRoutingHeaders(format, headers)
        if case .native(let platform) = format,
            let problem = NativePayload.problem(Array(text.utf8), platform: platform, headers: headers)
        {
            throw EmulatorError.badRequest(problem)
        }
        return OutgoingNotification(format: format, tags: tags, body: text, headers: headers)
    }

    /// Headers a platform cannot do without (§5.1): WNS needs `X-WNS-Type`.
    static func checkRoutingHeaders(_ format: OutgoingNotification.Format, _ headers: [String: String]) throws {
        if case .native(.wns) = format, !headers.keys.contains(where: { $0.lowercased() == "x-wns-type" }) {
            throw EmulatorError.badRequest(
                "Windows notifications need the X-WNS-Type header (wns/toast, wns/tile, wns/badge or wns/raw).")
        }
    }

    private func format(_ call: Call) throws -> OutgoingNotification.Format? {
        guard let name = call.headers[.notificationFormat] else { return nil }
        guard let format = OutgoingNotification.Format(name: name) else {
            throw EmulatorError.badRequest("Unknown ServiceBusNotification-Format '\(name)'.")
        }
        return format
    }

    /// The platform headers passed on to the PNS: `apns-*`, `X-WNS-*`, MPNS and browser ones.
    private func platformHeaders(_ fields: HTTPFields) -> [String: String] {
        var headers: [String: String] = [:]
        for field in fields {
            let name = field.name.rawName.lowercased()
            if name.hasPrefix("apns-") || name.hasPrefix("x-wns-") || name == "x-windowsphone-target"
                || name == "x-notificationclass" || name == "servicebusnotification-apns-expiry"
            {
                headers[field.name.rawName] = field.value
            }
        }
        return headers
    }

    /// 201 with the notification's Location (Standard tier only, §5.1) and an optional outcome body.
    private func created(_ call: Call, location: String, extraQuery: String = "", outcome: String? = nil)
        -> Response
    {
        var headers = HTTPFields()
        if configuration.tier == .standard { headers[.location] = call.url(location, extraQuery: extraQuery) }
        headers[.poweredBy] = "Azure Notification Hubs"
        // With no outcome the body is empty and unlabelled (recorded 2024: 201, Content-Length 0, no Content-Type).
        guard let outcome else { return Self.empty(.created, headers: headers) }
        return response(.created, contentType: Self.xmlType, body: outcome, headers: headers)
    }
}
