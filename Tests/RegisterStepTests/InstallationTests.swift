import Foundation
import HubWire
import PipelineCore
import TestSupport
import Testing

@testable import RegisterStep

@Suite struct InstallationTests {
    @Test func inlineInstallationsWithATemplateArePutExactly() async throws {
        let step = try built([
            ("hub", scalar("tutorial")),
            (
                "installations",
                list([
                    mapping([
                        ("installationId", scalar("ipad-1")), ("platform", scalar("apns")),
                        ("pushChannel", scalar(apnsToken)),
                        ("tags", words("follows_RedSox", "$UserId:{alice}")), ("userId", scalar("alice")),
                    ]),
                    mapping([
                        ("installationId", scalar("ipad-2")), ("platform", scalar("APNS")),
                        ("pushChannel", scalar("0a1B")),
                    ]),
                ])
            ),
            ("templates", words("alert")),
            ("concurrency", scalar("1")),
        ])
        let transport = ScriptedTransport()
        let result = try await step.run(in: context(transport))

        let template =
            #"{"alert":{"body":"{\"aps\":{\"alert\":\"$(message)\"}}","headers":{"apns-push-type":"alert"},"tags":["news"]}}"#
        #expect(
            transport.requests == [
                HubRequest(
                    method: .put, url: base + "installations/ipad-1?api-version=2020-06",
                    headers: [HubHeader("Content-Type", "application/json")],
                    body: Array(
                        ("{\"installationId\":\"ipad-1\",\"platform\":\"apns\",\"pushChannel\":\"\(apnsToken)\","
                            + "\"tags\":[\"follows_RedSox\",\"$UserId:{alice}\"],\"templates\":\(template),\"userId\":\"alice\"}")
                            .utf8),
                    isIdempotent: true, summary: "PUT installation 'ipad-1'", right: .listen),
                HubRequest(
                    method: .put, url: base + "installations/ipad-2?api-version=2020-06",
                    headers: [HubHeader("Content-Type", "application/json")],
                    body: Array(
                        #"{"installationId":"ipad-2","platform":"apns","pushChannel":"0a1B","templates":\#(template)}"#
                            .utf8),
                    isIdempotent: true, summary: "PUT installation 'ipad-2'", right: .listen),
            ])
        #expect(result.summary == "registered 2 installations on hub 'tutorial' (2 ok, 0 failed)")
        #expect(result.lines.isEmpty)
        #expect(
            result.data
                == .array([
                    .object([ReportField("device", .string("ipad-1")), ReportField("outcome", .string("created"))]),
                    .object([ReportField("device", .string("ipad-2")), ReportField("outcome", .string("created"))]),
                ]))
    }

    @Test func patchModeSendsTheExactJSONPatch() async throws {
        let step = try built([
            ("hub", scalar("tutorial")), ("mode", scalar("patch")),
            (
                "installations",
                list([
                    mapping([
                        ("installationId", scalar("ipad/1")), ("platform", scalar("apns")), ("userId", scalar("bob")),
                    ])
                ])
            ),
            ("add-tags", words("location_Boston", "follows_RedSox")), ("remove-tags", words("location_NYC")),
            ("templates", words("alert")),
        ])
        let transport = ScriptedTransport()
        let result = try await step.run(in: context(transport))
        let template =
            #"{\"body\":\"{\\\"aps\\\":{\\\"alert\\\":\\\"$(message)\\\"}}\",\"headers\":{\"apns-push-type\":\"alert\"},\"tags\":[\"news\"]}"#
        #expect(
            transport.requests == [
                HubRequest(
                    method: .patch, url: base + "installations/ipad%2F1?api-version=2020-06",
                    headers: [HubHeader("Content-Type", "application/json-patch+json")],
                    body: Array(
                        ("["
                            + [
                                #"{"op":"add","path":"/userId","value":"bob"}"#,
                                #"{"op":"add","path":"/tags","value":"location_Boston"}"#,
                                #"{"op":"add","path":"/tags","value":"follows_RedSox"}"#,
                                #"{"op":"remove","path":"/tags/location_NYC"}"#,
                                #"{"op":"add","path":"/templates/alert","value":"\#(template)"}"#,
                            ].joined(separator: ",") + "]").utf8),
                    isIdempotent: true, summary: "PATCH installation 'ipad/1'", right: .listen)
            ])
        #expect(result.summary == "patched 1 installation on hub 'tutorial' (1 ok, 0 failed)")
        #expect(result.data.outcomes == ["ipad/1": "updated"])
    }

    @Test func deleteModeSendsDeletesFromACSVFile() async throws {
        let dir = try directory(with: ["retired.csv": "installationId\nipad-1\n\n\"id with, comma\"\n"])
        let step = try built(
            [
                ("hub", scalar("tutorial")), ("mode", scalar("delete")), ("installations", scalar("retired.csv")),
                ("concurrency", scalar("1")),
            ], directory: dir)
        let transport = ScriptedTransport()
        let result = try await step.run(in: context(transport, directory: dir))
        #expect(
            transport.requests == [
                HubRequest(
                    method: .delete, url: base + "installations/ipad-1?api-version=2020-06", headers: [], body: [],
                    isIdempotent: true, summary: "DELETE installation 'ipad-1'", right: .listen),
                HubRequest(
                    method: .delete, url: base + "installations/id%20with%2C%20comma?api-version=2020-06", headers: [],
                    body: [],
                    isIdempotent: true, summary: "DELETE installation 'id with, comma'", right: .listen),
            ])
        #expect(result.summary == "deleted 2 installations on hub 'tutorial' (2 ok, 0 failed)")
        #expect(result.data.outcomes == ["ipad-1": "deleted", "id with, comma": "deleted"])
    }

    @Test func aTemplateForAnotherPlatformFailsThatDeviceOnly() async throws {
        let dir = try directory(with: [
            "devices.jsonl": """
            {"installationId":"ipad-1","platform":"apns","pushChannel":"\(apnsToken)"}
            {"installationId":"pixel-1","platform":"fcmv1","pushChannel":"\(fcmToken)"}
            """
        ])
        let step = try built(
            [("hub", scalar("tutorial")), ("installations", scalar("devices.jsonl")), ("templates", words("alert"))],
            directory: dir)
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: context(transport, directory: dir))
        #expect(failure.message == "registered 2 installations on hub 'tutorial' (1 ok, 0 failed, 1 bad)")
        #expect(
            failure.lines == [
                "pixel-1: \(dir)/devices.jsonl:2: template 'alert' is for apns, but the device's platform is fcmv1"
            ])
        #expect(failure.data.outcomes == ["ipad-1": "created", "pixel-1": "bad"])
        #expect(transport.requests.map(\.url) == [base + "installations/ipad-1?api-version=2020-06"])
    }

    @Test func failedRequestsAreReportedPerDeviceAndTheRestGoOn() async throws {
        let devices = (1...8).map { n in
            mapping([
                ("installationId", scalar("d\(n)")), ("platform", scalar("fcmv1")),
                ("pushChannel", scalar("token-\(n)")),
            ])
        }
        let step = try built([
            ("hub", scalar("tutorial")), ("installations", list(devices)), ("concurrency", scalar("3")),
        ])
        let transport = ScriptedTransport { request, _ in
            request.url.contains("/d2?") || request.url.contains("/d4?") || request.url.contains("/d5?")
                || request.url.contains("/d6?") || request.url.contains("/d7?") || request.url.contains("/d8?")
                ? .success(
                    HubResponse(
                        status: 400,
                        body: Array(
                            "<Error><Code>400</Code><Detail>Invalid tag.TrackingId:x,TimeStamp:y</Detail></Error>".utf8)
                    ))
                : nil
        }
        let failure = try await failure(of: step, in: context(transport))
        #expect(transport.requests.count == 8)
        #expect(failure.message == "could not register 6 of 8 installations on hub 'tutorial' (2 ok, 6 failed)")
        #expect(
            failure.lines == [
                "d2: PUT installation 'd2': bad request: Invalid tag",
                "d4: PUT installation 'd4': bad request: Invalid tag",
                "d5: PUT installation 'd5': bad request: Invalid tag",
                "d6: PUT installation 'd6': bad request: Invalid tag",
                "d7: PUT installation 'd7': bad request: Invalid tag",
                "… and 1 more failed or bad (see the report data)",
            ])
        #expect(failure.data.outcomes["d8"] == "failed")
        #expect(failure.data.outcomes["d3"] == "created")
    }
}
