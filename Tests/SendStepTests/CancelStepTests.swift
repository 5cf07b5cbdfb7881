import HubWire
import PipelineCore
import RunStore
import TestSupport
import Testing

@testable import CancelStep
@testable import SendStep

/// Every diagnostic of a cancel built from `pairs` as `file:line:column severity: message`.
private func diagnose(_ pairs: [(String, Any)]) -> (CancelStep?, [String]) {
    let (step, found) = diagnostics(CancelStep.self, pairs)
    return (step, found.map { "\($0.location.map(\.description) ?? "-") \($0.severity.rawValue): \($0.message)" })
}

/// `cancel`: scheduled notifications cancelled by id, a step of its own.
@Suite struct CancelStepTests {
    @Test func cancelDeletesTheScheduledNotification() async throws {
        let step = try #require(
            diagnose([("hub", "sports"), ("notification-ids", "7138412281836466052-3339543437946614470-1")]).0)
        let transport = ScriptedTransport([HubResponse(status: 200)])
        let result = try await run(step, transport: transport)
        let request = try #require(transport.requests.first)
        #expect(request.method == .delete)
        #expect(
            request.url
                == "http://127.0.0.1:8080/myhub/schedulednotifications/7138412281836466052-3339543437946614470-1?api-version=2020-06"
        )
        #expect(
            result.summary
                == "cancelled scheduled notification '7138412281836466052-3339543437946614470-1' on hub 'sports'")
        #expect(result.outputs["notification-ids"] == .list(["7138412281836466052-3339543437946614470-1"], total: 1))
        #expect(result.outputs["cancelled"] == .integer(1))
    }

    @Test func aListIsCancelledIdByIdEachOnce() async throws {
        let step = try #require(diagnose([("hub", "sports"), ("notification-ids", ["n-1", "n-2", "n-1"])]).0)
        let transport = ScriptedTransport([HubResponse(status: 200), HubResponse(status: 200)])
        let result = try await run(step, transport: transport)
        #expect(
            transport.requests.map(\.url)
                == ["n-1", "n-2"].map { "http://127.0.0.1:8080/myhub/schedulednotifications/\($0)?api-version=2020-06" }
        )
        #expect(result.summary == "cancelled 2 scheduled notifications on hub 'sports'")
        #expect(
            result.outputs["notification-ids"] == .list(["n-1", "n-2"], total: 2)
                && result.outputs["cancelled"] == .integer(2))
    }

    @Test func inASplitRunPartZeroCancelsAndTheOtherPartsLeaveItToIt() async throws {
        let cancel = try #require(diagnose([("hub", "sports"), ("notification-ids", "n-1")]).0)
        let test = try #require(
            build([("hub", "sports"), ("audience", "fans"), ("properties", [("m", "x")]), ("test", "true")]).0)
        for step in [cancel as any RunnableStep, test] {
            var sent = 0
            for index in 0..<3 {
                let transport = ScriptedTransport([
                    HubResponse(
                        status: 201, headers: [HubHeader("Location", "http://h/myhub/messages/n1?api-version=2020-06")])
                ])
                let result = try await run(
                    step, transport: transport, batch: BatchControl(shard: Shard(index: index, count: 3)))
                sent += transport.requests.count
                if index > 0 {
                    #expect(
                        result.summary.hasSuffix("is left to part 0/3; this is part \(index)/3"), "\(result.summary)")
                }
            }
            #expect(sent == 1, "one request for the whole split run")
        }
    }

    @Test func anUnknownIdSaysItWasSentOrCancelledAlreadyAfterTheOthersAreCancelled() async throws {
        let step = try #require(diagnose([("hub", "sports"), ("notification-ids", "n-1")]).0)
        do {
            _ = try await run(step, transport: ScriptedTransport([HubResponse(status: 404)]))
            Issue.record("a 404 must fail the step")
        } catch let failure as StepFailure {
            #expect(
                failure.message
                    == "hub 'sports' has no scheduled notification 'n-1': it was sent or cancelled already, or the id is wrong"
            )
            #expect(failure.code == .hubRefused)
        }
        let two = try #require(diagnose([("hub", "sports"), ("notification-ids", ["n-1", "n-2"])]).0)
        let transport = ScriptedTransport([HubResponse(status: 404), HubResponse(status: 200)])
        await #expect(throws: StepFailure.self) { _ = try await run(two, transport: transport) }
        #expect(transport.requests.count == 2, "a stale id does not leave the others going out")
    }

    @Test func cancelTakesAHubIdsAndTheRetryKeys() {
        #expect(
            diagnose([("hub", "sports"), ("notification-ids", "n-1"), ("audience", "fans")]).1
                == ["p.yaml:2:10 error: unknown key 'audience'"])
        #expect(
            diagnose([("hub", "sports"), ("notification-ids", "a b")]).1
                == [
                    "p.yaml:2:10 error: 'notification-ids' must hold the notification ids a scheduled send reported, found 'a b'"
                ])
        #expect(
            diagnose([("hub", "sports"), ("notification-ids", [String]())]).1 == [
                "p.yaml:2:10 error: 'notification-ids' lists no ids"
            ])
        #expect(diagnose([("hub", "sports"), ("notification-ids", "n-1"), ("retries", "1")]).0?.policy.maxRetries == 1)
        #expect(
            diagnose([("hub", "sport"), ("notification-ids", "n-1")]).1
                == ["p.yaml:2:10 error: unknown hub 'sport'; did you mean 'sports'?"])
    }

    @Test func dryRunShowsTheDeleteAndSendsNothing() async throws {
        let step = try #require(diagnose([("hub", "sports"), ("notification-ids", "n-1")]).0)
        let result = try await run(step, transport: ScriptedTransport(), dryRun: true)
        #expect(result.summary == "would cancel scheduled notification 'n-1' on hub 'sports' (nothing sent)")
        #expect(
            result.lines.first?.hasPrefix(
                "DELETE http://127.0.0.1:8080/myhub/schedulednotifications/n-1?api-version=2020-06") == true)
        #expect(result.outputs["cancelled"] == .integer(0))
    }
}
