import Foundation
import HubWire
import PipelineCore

/// Proves, without sending a notification or changing anything, that a hub is reachable, that it exists,
/// that the connection string's key is accepted, and which of the rights a pipeline needs the key holds.
///
/// Two harmless requests, each about an id that cannot exist (`pushline-check-` and a random UUID):
/// - `GET installations/{id}` (Listen): 404 "Installation not found" proves the key, the hub and Listen;
///   404 "No service is hosted at the specified address." says the hub does not exist.
/// - `DELETE schedulednotifications/{id}` (Send), only when a step sends: 404 proves Send without
///   sending or cancelling anything. A tier that takes no scheduled sends answers otherwise; then Send
///   cannot be proven without sending, and the report says so.
/// - `GET messages/{id}` (Manage), only when a step reads delivery outcomes: 404 proves Manage and that the hub keeps
///   telemetry; below Standard NH answers 403 "not enabled for your SKU", which the report says plainly.
package enum HubProbe {
    /// One finding about a hub.
    package struct Finding: Sendable, Equatable {
        /// Proven, failed, or not provable without sending.
        package enum Verdict: String, Sendable {
            case proven, failed, unproven
        }

        package var verdict: Verdict
        /// What was found, for people.
        package var text: String
    }

    /// Checks `session`'s hub for `rights` (with what each is needed for); every finding, in order.
    package static func check(_ session: HubSession, rights: [AccessRight: [String]]) async -> [Finding] {
        var findings: [Finding] = []
        let id = "pushline-check-\(UUID().uuidString.lowercased())"
        let read = HubRequests.getInstallation(id: id, at: session.endpoint)
        let answer: TransportResult
        do {
            answer = try await session.perform(read, accepting: Set(100..<600))
        } catch {
            return [Finding(verdict: .failed, text: "the hub cannot be reached: \(error.message)")]
        }
        let status = answer.response.status
        let detail = HubFailure.classify(answer.response, for: read, now: Date().timeIntervalSince1970)
        switch status {
        case 200..<300,
            404 where !answer.response.bodyText.contains("No service is hosted"):
            findings.append(
                Finding(
                    verdict: .proven,
                    text: "the key is accepted and the hub exists "
                        + "(GET of an installation that cannot exist: \(status))"))
            findings.append(listen(rights, .proven, "proven by that read"))
        case 404:
            return [
                Finding(
                    verdict: .failed,
                    text: "the hub '\(session.endpoint.hub)' does not exist at this endpoint "
                        + "(\(detail.messageWithDetail)); check `hub:` and the connection string's namespace")
            ]
        case 403 where answer.response.header("Retry-After") == nil:
            findings.append(
                Finding(
                    verdict: .proven,
                    text: "the key is accepted (its policy lacks Listen, so the hub's "
                        + "existence is shown by the next check, if any)"))
            findings.append(listen(rights, .failed, "the key's policy does not grant it (GET installation: 403)"))
        default:
            return [
                Finding(
                    verdict: .failed,
                    text: "the hub refused the key: \(detail.messageWithDetail)"
                        + (detail.hint.map { "; \($0)" } ?? ""))
            ]
        }
        guard let purposes = rights[.send] else {
            findings.append(Finding(verdict: .proven, text: "Send: not needed by any step"))
            findings.append(await manage(session, rights, id: id))
            return findings
        }
        let cancel = HubRequests.cancelScheduled(id: id, at: session.endpoint)
        let needed = "Send (\(purposes.joined(separator: ", ")))"
        do {
            let result = try await session.perform(cancel, accepting: Set(100..<600))
            let code = result.response.status
            switch code {
            case 404 where result.response.bodyText.contains("No service is hosted"):
                findings.append(
                    Finding(
                        verdict: .failed,
                        text: "the hub '\(session.endpoint.hub)' does not exist at this endpoint "
                            + "(DELETE scheduled notification: 404 No service is hosted at the specified address.)"))
            case 200..<300, 404:
                findings.append(
                    Finding(
                        verdict: .proven,
                        text: "\(needed): proven without sending "
                            + "(DELETE of a scheduled notification that cannot exist: \(code); nothing sent or cancelled)"
                    ))
            // 401 is the older answer to a missing claim; 403 with an empty body the newer (nh-rest-api.md §1.6).
            case 401,
                403 where result.response.bodyText.isEmpty && result.response.header("Retry-After") == nil:
                findings.append(
                    Finding(
                        verdict: .failed,
                        text: "\(needed): the key's policy does not grant it "
                            + "(DELETE scheduled notification: \(code)); use a policy with Send, such as DefaultFullSharedAccessSignature"
                    ))
            default:
                let failure = HubFailure.classify(result.response, for: cancel, now: Date().timeIntervalSince1970)
                findings.append(
                    Finding(
                        verdict: .unproven,
                        text: "\(needed): cannot be proven without sending here "
                            + "(DELETE scheduled notification: \(failure.messageWithDetail)); the first send of a run will tell"
                    ))
            }
        } catch {
            findings.append(Finding(verdict: .failed, text: "\(needed): the hub cannot be reached: \(error.message)"))
        }
        findings.append(await manage(session, rights, id: id))
        return findings
    }

    /// Manage, for the steps that read telemetry: a read of a notification that cannot exist.
    private static func manage(_ session: HubSession, _ rights: [AccessRight: [String]], id: String) async -> Finding {
        guard let purposes = rights[.manage] else {
            return Finding(verdict: .proven, text: "Manage: not needed by any step")
        }
        let needed = "Manage (\(purposes.joined(separator: ", ")))"
        let read = HubRequests.notificationDetails(id: id, at: session.endpoint)
        let result: TransportResult
        do {
            result = try await session.perform(read, accepting: Set(100..<600))
        } catch {
            return Finding(verdict: .failed, text: "\(needed): the hub cannot be reached: \(error.message)")
        }
        let code = result.response.status
        switch code {
        case 200..<300, 404:
            return Finding(
                verdict: .proven,
                text:
                    "\(needed): proven, and the hub keeps telemetry (GET of a notification that cannot exist: \(code))")
        case 401,
            403 where result.response.header("Retry-After") == nil:
            if result.response.refusesForTier {
                return Finding(
                    verdict: .failed,
                    text: "\(needed): the hub keeps no per-message telemetry: that needs the Standard tier, "
                        + "and this hub is Free or Basic; upgrade it, or remove the `outcomes` step (sends work either way)"
                )
            }
            return Finding(
                verdict: .failed,
                text: "\(needed): the key's policy does not grant it (GET notification: \(code)); "
                    + "use a policy with Manage, such as DefaultFullSharedAccessSignature, or remove the `outcomes` step"
            )
        default:
            let failure = HubFailure.classify(result.response, for: read, now: Date().timeIntervalSince1970)
            return Finding(
                verdict: .unproven,
                text: "\(needed): cannot be proven here (GET notification: \(failure.messageWithDetail))")
        }
    }

    private static func listen(_ rights: [AccessRight: [String]], _ verdict: Finding.Verdict, _ how: String) -> Finding
    {
        guard let purposes = rights[.listen] else {
            return Finding(
                verdict: .proven,
                text: "Listen: not needed by any step" + (verdict == .proven ? "" : " (the key lacks it)"))
        }
        return Finding(verdict: verdict, text: "Listen (\(purposes.joined(separator: ", "))): \(how)")
    }
}
