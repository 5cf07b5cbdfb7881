import Foundation
import HubClient
import HubHTTP
import HubWire
import PipelineCore
import RunFlow
import RunStore

/// Finds the devices of a run whose push channel is dead: the installations its `register` steps wrote that NH marks
/// `pushChannelExpired`, and the devices its notifications' PNS error details name with a dead-channel outcome.
struct DeadDeviceFinder {
    let transport: any HubTransport
    let executor: HTTP1Client
    let console: Console
    struct Found {
        var dead: [DeadDevice] = []
        var checkedInstallations = 0
        var readNotifications = 0
        var notes: [String] = []
    }

    func find(run: RunRecord, items: [JournalItem], pipeline: RunPipeline, sample: Int) async throws -> Found {
        var found = Found()
        var installations: [Int: [String]] = [:]
        var notifications: [Int: [String]] = [:]
        let writesInstallations = pipeline.registerSteps.installations
        for item in items {
            if writesInstallations.contains(item.key.step), let target = item.target {
                installations[item.key.step, default: []].append(target)
            }
            if let id = item.entry.notificationId { notifications[item.key.step, default: []].append(id) }
        }
        var seen: Set<String> = []
        func add(_ device: DeadDevice) {
            if seen.insert("\(device.hub)|\(device.kind.rawValue)|\(device.id)").inserted { found.dead.append(device) }
        }
        for (step, hub) in pipeline.hubs(right: .listen).sorted(by: { $0.key < $1.key }) {
            guard let ids = installations[step], !ids.isEmpty else { continue }
            let session = try RunPipeline.session(hub, transport: transport, console: console)
            let unique = Array(Set(ids)).sorted()
            found.checkedInstallations += unique.count
            for device in try await expired(unique, session: session) { add(device) }
        }
        for (step, hub) in pipeline.hubs(right: .send).sorted(by: { $0.key < $1.key }) {
            guard let ids = notifications[step], !ids.isEmpty else { continue }
            let session = try RunPipeline.session(hub, transport: transport, console: console)
            let read = OutcomeCollector.sample(ids, size: sample)
            found.readNotifications += read.count
            let (devices, notes) = try await pnsErrors(read, session: session)
            // A device the telemetry names may be gone already (deleted by an earlier prune, or by its app).
            try await existing(
                devices.filter { !seen.contains("\($0.hub)|\($0.kind.rawValue)|\($0.id)") }, session: session
            ).forEach(add)
            found.notes += notes
        }
        return found
    }

    /// The installations among `ids` whose channel NH marks expired; those gone already are skipped.
    private func expired(_ ids: [String], session: HubSession) async throws -> [DeadDevice] {
        try await HubReads.concurrently(ids) { id async throws(StepFailure) -> DeadDevice? in
            let result = try await session.perform(
                HubRequests.getInstallation(id: id, at: session.endpoint), accepting: [404])
            guard result.response.status != 404,
                let installation = try? JSONDecoder().decode(Installation.self, from: Data(result.response.body)),
                installation.pushChannelExpired == true
            else { return nil }
            return DeadDevice(
                hub: session.hub.name, kind: .installation, id: id, platform: installation.platform,
                reason: "pushChannelExpired", source: "installation")
        }
    }

    /// Those of `devices` the hub still has.
    private func existing(_ devices: [DeadDevice], session: HubSession) async throws -> [DeadDevice] {
        try await HubReads.concurrently(devices) { device async throws(StepFailure) -> DeadDevice? in
            let request =
                device.kind == .installation
                ? HubRequests.getInstallation(id: device.id, at: session.endpoint)
                : HubRequests.getRegistration(id: device.id, at: session.endpoint)
            let result = try await session.perform(request, accepting: [404])
            return result.response.status == 404 ? nil : device
        }
    }

    /// The devices the PNS error details of `ids` name with a dead-channel outcome, and notes on what could not be read.
    private func pnsErrors(_ ids: [String], session: HubSession) async throws -> ([DeadDevice], [String]) {
        let links = try await HubReads.concurrently(ids) { id async throws(StepFailure) -> String? in
            let result = try await session.perform(
                HubRequests.notificationDetails(id: id, at: session.endpoint), accepting: [403, 404])
            guard result.response.status == 200 else { return nil }
            return (try? NotificationDetails(parsing: result.response.bodyText))?.pnsErrorDetailsUri
        }
        var devices: [DeadDevice] = []
        var unreadable = 0
        for link in Set(links) {
            // A blob SAS URL: its own query authorises it, so it is read without the hub's token.
            let request = HubRequest(
                method: .get, url: link, headers: [], body: [], isIdempotent: true, summary: "GET PNS error details",
                right: .manage)
            guard case .response(let response) = await executor.perform(request, extraHeaders: []),
                response.status == 200,
                let entries = try? JSONDecoder().decode([PnsErrorEntry].self, from: Data(response.body))
            else {
                unreadable += 1
                continue
            }
            for entry in entries {
                let platform = entry.platform.flatMap(PushPlatform.init(caseInsensitive:))
                guard PnsOutcome.kind(of: entry.outcome, on: platform) == .deadChannel else { continue }
                if let installation = entry.installationId {
                    devices.append(
                        DeadDevice(
                            hub: session.hub.name, kind: .installation, id: installation, platform: entry.platform,
                            reason: entry.outcome, source: "telemetry"))
                } else if let registration = entry.registrationId {
                    devices.append(
                        DeadDevice(
                            hub: session.hub.name, kind: .registration, id: registration, platform: entry.platform,
                            reason: entry.outcome, source: "telemetry"))
                }
            }
        }
        let notes =
            unreadable == 0
            ? []
            : [
                "\(unreadable) PNS error details link\(unreadable == 1 ? "" : "s") of hub '\(session.hub.name)' "
                    + "could not be read as a list of devices (NH does not document their form); the installations' own marks still count"
            ]
        return (devices, notes)
    }
}

/// One device of a PNS error details list, in the form the emulator writes (`/_emulator/pns-errors/{id}`).
private struct PnsErrorEntry: Decodable {
    let platform: String?
    let installationId: String?
    let registrationId: String?
    let outcome: String
}
