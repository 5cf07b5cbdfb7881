import Foundation
import HubClient
import HubWire
import PipelineCore
import RunFlow
import RunStore

/// The legacy FCM (`gcm`) installations a run's `register` steps wrote, read back from their hubs, and each one's
/// FCM v1 form: platform `fcmv1`, the same token (FCM tokens did not change), tags, user id and push variables
/// kept, every template body translated (``LegacyFcmPayload``). NH has no call that lists installations, so the
/// journal is the list.
struct FcmV1Move {
    /// One installation to write again as `fcmv1`.
    struct Move: Sendable {
        let hub: String
        /// As it is on the hub.
        let current: Installation
        /// As it will be.
        let moved: Installation
        /// Each template's translation notes, by name.
        let notes: [String: [String]]
    }

    /// An installation that stays as it is, and why.
    struct Refusal: Sendable {
        let hub: String
        let id: String
        let reason: String
    }

    struct Plan {
        var moves: [Move] = []
        var refused: [Refusal] = []
        var read = 0
        var alreadyFcmV1 = 0
        var otherPlatforms = 0
        var gone = 0
        /// Channels NH marks expired: moved, they would still reach no one (`devices prune` removes them).
        var expired = 0
        /// Registrations of their own the run wrote: not moved (an app re-registers them; or a `register` step).
        var registrations = 0
        /// The register steps (numbers) that wrote legacy FCM devices: their next run writes them back unless changed.
        var legacySteps: Set<Int> = []
    }

    let transport: any HubTransport
    let console: Console

    func plan(items: [JournalItem], pipeline: RunPipeline) async throws -> Plan {
        var plan = Plan()
        let steps = pipeline.registerSteps
        var installations: [Int: [String]] = [:]
        for item in items {
            if steps.installations.contains(item.key.step), let target = item.target {
                installations[item.key.step, default: []].append(target)
            } else if steps.registrations.contains(item.key.step) {
                plan.registrations += 1
            }
        }
        var read: [String: Set<String>] = [:]
        for (step, hub) in pipeline.hubs(right: .listen).sorted(by: { $0.key < $1.key }) {
            // Two steps writing one device to one hub: it is read (and moved) once.
            let ids = Set(installations[step] ?? []).subtracting(read[hub.name] ?? [])
            guard !ids.isEmpty else { continue }
            read[hub.name, default: []].formUnion(ids)
            let session = try RunPipeline.session(hub, transport: transport, console: console)
            let found = try await HubReads.concurrently(ids.sorted()) {
                id async throws(StepFailure) -> (String, Installation?) in
                let result = try await session.perform(
                    HubRequests.getInstallation(id: id, at: session.endpoint), accepting: [404])
                guard result.response.status != 404 else { return (id, nil) }
                guard let installation = try? JSONDecoder().decode(Installation.self, from: Data(result.response.body))
                else {
                    throw StepFailure(
                        "GET installation '\(id)' on hub '\(hub.name)': the answer is not an installation")
                }
                return (id, installation)
            }
            plan.read += found.count
            for (id, installation) in found.sorted(by: { $0.0 < $1.0 }) {
                guard let installation else {
                    plan.gone += 1
                    continue
                }
                switch PushPlatform(caseInsensitive: installation.platform) {
                case .gcm where installation.pushChannelExpired == true:
                    plan.expired += 1
                case .gcm:
                    plan.legacySteps.insert(step)
                    switch Self.translate(installation) {
                    case .success(let (moved, notes)):
                        plan.moves.append(Move(hub: hub.name, current: installation, moved: moved, notes: notes))
                    case .failure(let problem):
                        plan.refused.append(Refusal(hub: hub.name, id: id, reason: problem.message))
                    }
                case .fcmv1: plan.alreadyFcmV1 += 1
                default: plan.otherPlatforms += 1
                }
            }
        }
        return plan
    }

    /// The installation as `fcmv1`: every template translated, or the first that cannot be (then none is moved:
    /// half its templates would reach no one).
    static func translate(_ installation: Installation) -> Result<
        (Installation, [String: [String]]), LegacyFcmPayload.Problem
    > {
        guard case .handle = installation.pushChannel else {
            return .failure(.init(message: "its push channel is not an FCM token"))
        }
        var moved = installation
        moved.platform = PushPlatform.fcmv1.rawValue
        moved.pushChannelExpired = nil
        moved.expirationTime = nil
        var notes: [String: [String]] = [:]
        for (name, template) in (installation.templates ?? [:]).sorted(by: { $0.key < $1.key }) {
            do {
                let translation = try LegacyFcmPayload.translate(template.body)
                moved.templates?[name]?.body = translation.body
                if !translation.notes.isEmpty { notes[name] = translation.notes }
            } catch {
                return .failure(.init(message: "template '\(name)': \(error.message)"))
            }
        }
        return .success((moved, notes))
    }
}
