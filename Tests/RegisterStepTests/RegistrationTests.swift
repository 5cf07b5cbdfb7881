import Foundation
import HubWire
import PipelineCore
import TestSupport
import Testing

@testable import RegisterStep

private let gone = HubResponse(
    status: 410, body: Array("<Error><Code>410</Code><Detail>Gone.TrackingId:x,TimeStamp:y</Detail></Error>".utf8))

private func templateRegistration(id: String? = nil) throws -> RegisterStep {
    var fields: [(String, ConfigNode)] = [
        ("platform", scalar("apns")), ("handle", scalar(apnsToken)),
        ("tags", words("$UserId:{alice}")), ("template", scalar("alert")),
    ]
    if let id { fields.append(("id", scalar(id))) }
    return try built([("hub", scalar("tutorial")), ("registrations", list([mapping(fields)]))])
}

private let expectedDescription = RegistrationDescription(
    kind: .apple, isTemplate: true, handle: apnsToken, tags: ["$UserId:{alice}", "news"],
    bodyTemplate: #"{"aps":{"alert":"$(message)"}}"#, templateName: "alert",
    headers: [RegistrationHeader(name: "apns-push-type", value: "alert")])

@Suite struct RegistrationTests {
    @Test func newRegistrationTakesTheIdFromLocationThenUpserts() async throws {
        let step = try templateRegistration()
        let transport = ScriptedTransport()
        let result = try await step.run(in: context(transport))
        #expect(
            transport.requests == [
                HubRequest(
                    method: .post, url: base + "registrationIDs?api-version=2020-06", headers: [], body: [],
                    isIdempotent: true, summary: "POST registrationIDs", right: .listen),
                HubRequest(
                    method: .put, url: base + "registrations/reg-1?api-version=2020-06",
                    headers: [HubHeader("Content-Type", "application/atom+xml;type=entry;charset=utf-8")],
                    body: Array(expectedDescription.requestEntryXML().utf8),
                    isIdempotent: true, summary: "PUT registration 'reg-1'", right: .listen),
            ])
        #expect(transport.requests[1].bodyText.contains("<AppleTemplateRegistrationDescription"))
        #expect(result.summary == "registered 1 registration on hub 'tutorial' (1 ok, 0 failed)")
        #expect(
            result.data
                == .array([
                    .object([
                        ReportField("device", .string(apnsToken)), ReportField("outcome", .string("created")),
                        ReportField("registrationId", .string("reg-1")),
                    ])
                ]))
    }

    @Test func aGivenIdIsUpdatedInPlace() async throws {
        let native = try built([
            ("hub", scalar("tutorial")),
            (
                "registrations",
                list([
                    mapping([
                        ("platform", scalar("fcmv1")), ("handle", scalar(fcmToken)), ("tags", words("news")),
                        ("id", scalar("7260-1")),
                    ])
                ])
            ),
        ])
        let transport = ScriptedTransport()
        let result = try await native.run(in: context(transport))
        let description = RegistrationDescription(kind: .fcmV1, isTemplate: false, handle: fcmToken, tags: ["news"])
        #expect(transport.requests.map(\.url) == [base + "registrations/7260-1?api-version=2020-06"])
        #expect(transport.requests.first?.body == Array(description.requestEntryXML().utf8))
        #expect(result.data.outcomes == ["7260-1": "updated"])
    }

    @Test func goneGetsANewIdAndRetriesOnce() async throws {
        let step = try templateRegistration(id: "stale-1")
        let transport = ScriptedTransport { request, _ in
            request.url.contains("/registrations/stale-1?") ? .success(gone) : nil
        }
        let result = try await step.run(in: context(transport))
        #expect(
            transport.requests.map(\.summary) == [
                "PUT registration 'stale-1'", "POST registrationIDs", "PUT registration 'reg-1'",
            ])
        #expect(
            result.data
                == .array([
                    .object([
                        ReportField("device", .string("stale-1")), ReportField("outcome", .string("created")),
                        ReportField("registrationId", .string("reg-1")),
                    ])
                ]))
    }

    @Test func goneForAFreshIdTooRetriesOnceThenFails() async throws {
        let step = try templateRegistration()
        let transport = ScriptedTransport { request, _ in request.method == .put ? .success(gone) : nil }
        let failure = try await failure(of: step, in: context(transport))
        #expect(
            transport.requests.map(\.summary) == [
                "POST registrationIDs", "PUT registration 'reg-1'", "POST registrationIDs", "PUT registration 'reg-2'",
            ])
        #expect(failure.message == "could not register 1 of 1 registration on hub 'tutorial' (0 ok, 1 failed)")
        #expect(
            failure.lines == [
                "\(apnsToken): PUT registration 'reg-2': the hub answered 410 Gone for a new registration id too; giving up"
            ])
        #expect(
            failure.data
                == .array([
                    .object([
                        ReportField("device", .string(apnsToken)), ReportField("outcome", .string("failed")),
                        ReportField("registrationId", .string("reg-2")),
                        ReportField(
                            "reason",
                            .string(
                                "PUT registration 'reg-2': the hub answered 410 Gone for a new registration id too; giving up"
                            )),
                    ])
                ]))
    }

    @Test func aMissingLocationFailsTheDevice() async throws {
        let step = try templateRegistration()
        let transport = ScriptedTransport { request, _ in
            request.method == .post ? .success(HubResponse(status: 201)) : nil
        }
        let failure = try await failure(of: step, in: context(transport))
        #expect(
            failure.lines == [
                "\(apnsToken): POST registrationIDs: the hub answered without a registration id in the Location header"
            ])
    }

    @Test func registrationsAreCheckedOfflineAtTheirYAMLLocation() {
        let (step, diagnostics) = build([
            ("hub", scalar("tutorial")),
            (
                "registrations",
                list([
                    mapping(
                        [
                            ("platform", scalar("fcmv1", 4, 19)), ("handle", scalar("has space", 4, 35)),
                            ("template", scalar("alret", 4, 56)),
                        ], 4, 9),
                    mapping(
                        [
                            ("platform", scalar("wns", 5, 19)),
                            ("handle", scalar("https://db5.notify.windows.com/?t=1", 5, 32)),
                            ("template", scalar("alert", 5, 80)),
                            ("tags", list([scalar("ok", 5, 95), scalar("no!", 5, 99)], 5, 94)),
                        ], 5, 9),
                    mapping([("platform", scalar("ios", 6, 19)), ("handel", scalar("x", 6, 30))], 6, 9),
                ])
            ),
        ])
        #expect(step == nil)
        #expect(
            diagnostics.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" } == [
                "4:56 unknown template 'alret'; did you mean 'alert'?",
                "4:35 handle 'has space' is not an FCM registration token: it contains a space",
                "5:80 template 'alert' is for apns, but the registration's platform is wns",
                "5:99 invalid tag: tag 'no!' contains '!', which is not allowed",
                "6:30 unknown key 'handel'; did you mean 'handle'?",
                "6:19 platform 'ios' is not supported; use apns, fcmv1, gcm or wns",
            ])
    }
}

@Suite("Registrations deleted by id (mode: delete)")
struct RegistrationDeleteTests {
    @Test("each id is a DELETE with If-Match *; one already gone counts as done")
    func deletesById() async throws {
        let step = try built([
            ("hub", scalar("tutorial")), ("mode", scalar("delete")),
            ("registrations", list([mapping([("id", scalar("reg-1"))]), mapping([("id", scalar("reg-2"))])])),
        ])
        let transport = ScriptedTransport { request, _ in
            request.url.contains("reg-2") ? .success(HubResponse(status: 404)) : nil
        }
        let result = try await step.run(in: context(transport))
        #expect(
            transport.requests.map(\.summary).sorted() == [
                "DELETE registration 'reg-1'", "DELETE registration 'reg-2'",
            ])
        #expect(
            transport.requests.allSatisfy { $0.method == .delete && $0.headers.contains(HubHeader("If-Match", "*")) })
        #expect(result.summary == "deleted 2 registrations on hub 'tutorial' (2 ok, 0 failed)")
        let text = "\(result.data)"
        #expect(text.contains("deleted") && text.contains("already gone"), "\(text)")
    }

    @Test(
        "a registration to delete is named by its id alone; patch and rows are refused where written",
        arguments: [
            ([("mode", scalar("delete")), ("registrations", list([mapping([("platform", scalar("apns"))])]))], "id"),
            (
                [
                    ("mode", scalar("patch")),
                    ("registrations", list([mapping([("platform", scalar("apns")), ("handle", scalar(apnsToken))])])),
                ],
                "'mode: patch' applies to installations; registrations are written whole"
            ),
        ])
    func refusals(options: [(String, ConfigNode)], expected: String) {
        let (step, diagnostics) = build([("hub", scalar("tutorial"))] + options)
        #expect(step == nil)
        #expect(diagnostics.contains { $0.message.contains(expected) }, "\(diagnostics.map(\.message))")
    }
}
