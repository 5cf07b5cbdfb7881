import Foundation
import HubWire
import PipelineCore
import PushlineLogging
import TestSupport
import Testing

@testable import HubClient

@Suite struct HubSessionTests {
    let hub = HubDeclaration(
        name: "sports", location: SourceLocation(file: "p.yaml", line: 1, column: 1),
        connection: try! ConnectionString(
            parsing: "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=k3y"),
        hubName: "myhub", endpoint: nil)

    func failure(_ response: HubResponse) async throws -> StepFailure? {
        let context = StepContext(
            logger: PushlineLogging.logger(label: "t", level: "critical")!, clock: .fixed(Date()),
            document: PipelineDocument(file: "p.yaml", directory: ".", hubs: [hub]), state: RunState(),
            isDryRun: false,
            transport: ScriptedTransport(attempts: 2, trackingId: "client-tracking") { _, _ in .success(response) })
        let session = try context.session(for: hub)
        do {
            _ = try await session.perform(HubRequests.getInstallation(id: "seed-1", at: session.endpoint))
            return nil
        } catch {
            return error
        }
    }

    @Test func aFailureNamesTheHubTheRequestAndWhatNHSaid() async throws {
        let body =
            "<Error><Code>404</Code><Detail>Installation not found.TrackingId:abc,TimeStamp:11/22/2026 4:06:26 AM</Detail></Error>"
        let failure = try #require(
            try await failure(
                HubResponse(status: 404, headers: [HubHeader("TrackingId", "hub-tracking")], body: Array(body.utf8))))
        #expect(
            failure.message
                == "hub 'sports': GET installation 'seed-1': the hub or resource does not exist (hub said: Installation not found)"
        )
        #expect(
            failure.data
                == .object([
                    ReportField("status", .int(404)), ReportField("trackingId", .string("hub-tracking")),
                    ReportField("attempts", .int(2)),
                ]))
    }

    @Test func anEmptyErrorBodyAddsNothing() async throws {
        let failure = try #require(try await failure(HubResponse(status: 404)))
        #expect(failure.message == "hub 'sports': GET installation 'seed-1': the hub or resource does not exist")
        #expect(
            failure.data
                == .object([
                    ReportField("status", .int(404)), ReportField("trackingId", .string("client-tracking")),
                    ReportField("attempts", .int(2)),
                ]))
    }

    @Test func theSuccessfulResponseComesBack() async throws {
        #expect(try await failure(HubResponse(status: 200)) == nil)
    }
}
