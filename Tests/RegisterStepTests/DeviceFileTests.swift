import Foundation
import HubWire
import PipelineCore
import TestSupport
import Testing

@testable import RegisterStep

/// The same three devices in each file format.
private let sameDevices: [(name: String, text: String)] = [
    (
        "devices.jsonl",
        """
        {"installationId":"ipad-1","platform":"apns","pushChannel":"\(apnsToken)","tags":["follows_RedSox","location_Boston"],"userId":"alice"}

        {"installationId":"pixel-1","platform":"fcmv1","pushChannel":"\(fcmToken)","pushChannelExpired":false}
        {"installationId":"surface-1","platform":"wns","pushChannel":"https://db5.notify.windows.com/?token=AwYAAAB%2b","tags":[]}

        """
    ),
    (
        "devices.json",
        """
        [
          {"installationId":"ipad-1","platform":"apns","pushChannel":"\(apnsToken)",
           "tags":["follows_RedSox","location_Boston"],"userId":"alice"},
          {"installationId":"pixel-1","platform":"fcmv1","pushChannel":"\(fcmToken)","pushChannelExpired":false},
          {"installationId":"surface-1","platform":"wns","pushChannel":"https://db5.notify.windows.com/?token=AwYAAAB%2b","tags":[]}
        ]
        """
    ),
    (
        "devices.csv",
        """
        installationId,platform,pushChannel,tags,userId\r
        ipad-1,apns,\(apnsToken),follows_RedSox|location_Boston,alice\r
        pixel-1 , fcmv1 ,"\(fcmToken)",,\r
        surface-1,wns,https://db5.notify.windows.com/?token=AwYAAAB%2b,,\r

        """
    ),
]

private func installations(in requests: [HubRequest]) throws -> [String: Installation] {
    var result: [String: Installation] = [:]
    for request in requests {
        let installation = try JSONDecoder().decode(Installation.self, from: Data(request.body))
        result[installation.installationId] = installation
    }
    return result
}

@Suite struct DeviceFileTests {
    @Test(arguments: sameDevices.map(\.name))
    func everyFormatRegistersTheSameDevices(_ name: String) async throws {
        let dir = try directory(with: [name: try #require(sameDevices.first { $0.name == name }).text])
        let step = try built([("hub", scalar("tutorial")), ("installations", scalar(name))], directory: dir)
        let transport = ScriptedTransport()
        let result = try await step.run(in: context(transport, directory: dir))
        #expect(result.summary == "registered 3 installations on hub 'tutorial' (3 ok, 0 failed)")
        #expect(
            try installations(in: transport.requests) == [
                "ipad-1": Installation(
                    installationId: "ipad-1", platform: "apns", pushChannel: .handle(apnsToken), userId: "alice",
                    tags: ["follows_RedSox", "location_Boston"]),
                "pixel-1": Installation(installationId: "pixel-1", platform: "fcmv1", pushChannel: .handle(fcmToken)),
                "surface-1": Installation(
                    installationId: "surface-1", platform: "wns",
                    pushChannel: .handle("https://db5.notify.windows.com/?token=AwYAAAB%2b")),
            ])
    }

    @Test func csvQuotedFieldsHoldCommasBarsAndQuotes() async throws {
        let dir = try directory(with: [
            "devices.csv": """
            userId,tags,installationId,pushChannel,platform
            bob,"follows_RedSox|location_Boston","desk ""1"", left",https://db5.notify.windows.com/?token=a%2Cb,wns
            ,"a|b","multi
            line",\(apnsToken),apns
            ,,"x,y","https://db5.notify.windows.com/?q=a,b|c",wns
            """
        ])
        let step = try built(
            [("hub", scalar("tutorial")), ("installations", scalar("devices.csv")), ("concurrency", scalar("1"))],
            directory: dir)
        let transport = ScriptedTransport()
        _ = try await step.run(in: context(transport, directory: dir))
        #expect(
            try installations(in: transport.requests) == [
                "desk \"1\", left": Installation(
                    installationId: "desk \"1\", left", platform: "wns",
                    pushChannel: .handle("https://db5.notify.windows.com/?token=a%2Cb"), userId: "bob",
                    tags: ["follows_RedSox", "location_Boston"]),
                "multi\nline": Installation(
                    installationId: "multi\nline", platform: "apns", pushChannel: .handle(apnsToken), tags: ["a", "b"]),
                "x,y": Installation(
                    installationId: "x,y", platform: "wns",
                    pushChannel: .handle("https://db5.notify.windows.com/?q=a,b|c")),
            ])
        #expect(transport.requests.first?.url == base + "installations/desk%20%221%22%2C%20left?api-version=2020-06")
    }

    @Test func badRowsFailWithFileAndLineWhileTheOthersRegister() async throws {
        let dir = try directory(with: [
            "devices.jsonl": """
            {"installationId":"ok-1","platform":"apns","pushChannel":"\(apnsToken)"}
            {"installationId":"odd","platform":"apns","pushChannel":"ABC"}

            not json
            {"installationId":"ok-2","platform":"gcm","pushChannel":"\(fcmToken)","tags":["bad tag"]}
            {"installationId":"ok-3","platform":"fcmv1","pushChannel":"\(fcmToken)","tgas":["x"]}
            {"installationId":"ok-1","platform":"apns","pushChannel":"\(apnsToken)"}
            {"installationId":"ok-4","platform":"ios","pushChannel":"\(apnsToken)"}
            {"installationId":"ok-5","platform":"gcm","pushChannel":"\(fcmToken)"}
            """
        ])
        let step = try built([("hub", scalar("tutorial")), ("installations", scalar("devices.jsonl"))], directory: dir)
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: context(transport, directory: dir))
        let file = "\(dir)/devices.jsonl"
        #expect(failure.message == "registered 8 installations on hub 'tutorial' (2 ok, 0 failed, 6 bad)")
        #expect(
            failure.lines == [
                "odd: \(file):2: pushChannel 'ABC' is not an APNs device token: it has an odd number of hex digits (3)",
                "\(file):4: not valid JSON",
                "ok-2: \(file):5: invalid tag: tag 'bad tag' contains a space, which is not allowed",
                "\(file):6: unknown key 'tgas'; did you mean 'tags'? (known keys: installationId, platform, pushChannel, tags, userId, templates, pushVariables)",
                "ok-1: \(file):7: installation 'ok-1' already appears at \(file):1; give each device once",
                "… and 1 more failed or bad (see the report data)",
            ])
        guard case .array(let entries) = failure.data else {
            Issue.record("data must be an array")
            return
        }
        #expect(
            entries.last
                == .object([
                    ReportField("device", .string("ok-5")), ReportField("outcome", .string("created")),
                ]))
        #expect(
            entries[6]
                == .object([
                    ReportField("device", .string("ok-4")), ReportField("outcome", .string("bad")),
                    ReportField(
                        "reason", .string("\(file):8: platform 'ios' is not supported; use apns, fcmv1, gcm or wns")),
                ]))
        // Sent concurrently: the order they go out in is not the rows' order.
        #expect(transport.requests.map(\.summary).sorted() == ["PUT installation 'ok-1'", "PUT installation 'ok-5'"])
    }

    @Test func badCSVRowsNameTheirLine() async throws {
        let dir = try directory(with: [
            "devices.csv": """
            installationId,platform,pushChannel
            a,wns,http://not-https.example.com/
            b,apns
            c,apns,"\(apnsToken)"x
            d,fcmv1,to"ken
            e,apns,"unclosed
            """
        ])
        let step = try built([("hub", scalar("tutorial")), ("installations", scalar("devices.csv"))], directory: dir)
        let failure = try await failure(of: step, in: context(ScriptedTransport(), directory: dir))
        let file = "\(dir)/devices.csv"
        #expect(
            failure.lines == [
                "a: \(file):2: pushChannel 'http://not-https.exa…' is not a WNS channel URI: it must be an https:// URL",
                "\(file):3: the row has 2 fields; the header has 3",
                "\(file):4: field 3 has text after its closing quote",
                "\(file):5: field 3 has a '\"' inside; quote the whole field and double the quote (\"\")",
                "\(file):6: a quoted field opens here and is not closed before the end of the file; close the quote, or double a quote inside the field (\"\")",
            ])
    }

    @Test func anOverlongLineIsSkippedAndReadingGoesOn() async throws {
        let long =
            #"{"installationId":"big","platform":"fcmv1","pushChannel":""# + String(repeating: "x", count: 1_100_000)
            + #""}"#
        let dir = try directory(with: [
            "devices.jsonl": long + "\n" + #"{"installationId":"small","platform":"fcmv1","pushChannel":"t"}"#
        ])
        let step = try built([("hub", scalar("tutorial")), ("installations", scalar("devices.jsonl"))], directory: dir)
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: context(transport, directory: dir))
        #expect(failure.lines == ["\(dir)/devices.jsonl:1: the line is longer than 1048576 bytes"])
        #expect(transport.requests.map(\.summary) == ["PUT installation 'small'"])
    }

    @Test func jsonArrayProblemsNameTheirLine() async throws {
        let dir = try directory(with: [
            "devices.json": """
            [ {"installationId":"a","platform":"fcmv1","pushChannel":"t1"},
              42,
              {"installationId":"b","platform":"fcmv1","pushChannel":"t2"},
            ]
            """
        ])
        let step = try built([("hub", scalar("tutorial")), ("installations", scalar("devices.json"))], directory: dir)
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: context(transport, directory: dir))
        let file = "\(dir)/devices.json"
        #expect(
            failure.lines == [
                "\(file):2: each device must be a JSON object",
                "\(file):4: a ',' is followed by ']' (trailing comma)",
            ])
        #expect(transport.requests.count == 2)
    }
}

@Suite("Whole installations in JSON rows: their own templates and push variables")
struct InstallationRowTests {
    @Test("a JSON row's templates and push variables are written with the installation")
    func templatesAndVariablesAreWritten() async throws {
        let dir = try directory(with: [
            "devices.jsonl": #"""
            {"installationId":"pixel-1","platform":"fcmv1","pushChannel":"\#(fcmToken)","tags":["news"],"userId":"alice","pushVariables":{"team":"Sox"},"templates":{"alert":{"body":"{\"message\":{\"data\":{\"m\":\"$(m)\"}}}","tags":["digest"]}}}

            """#
        ])
        let step = try built([("hub", scalar("tutorial")), ("installations", scalar("devices.jsonl"))], directory: dir)
        let transport = ScriptedTransport()
        let result = try await step.run(in: context(transport, directory: dir))
        #expect(result.summary == "registered 1 installation on hub 'tutorial' (1 ok, 0 failed)")
        var expected = Installation(
            installationId: "pixel-1", platform: "fcmv1", pushChannel: .handle(fcmToken), userId: "alice",
            tags: ["news"],
            templates: ["alert": InstallationTemplate(body: #"{"message":{"data":{"m":"$(m)"}}}"#, tags: ["digest"])])
        expected.pushVariables = ["team": "Sox"]
        #expect(try installations(in: transport.requests) == ["pixel-1": expected])
    }

    @Test(
        "a row's template that does not compile, or has the wrong format, fails that row with the reason",
        arguments: [
            (
                #"{"installationId":"a","platform":"fcmv1","pushChannel":"TOKEN","templates":{"t":{"body":"{\"x\":\"$(\"}"}}}"#,
                "template 't': "
            ),
            (
                #"{"installationId":"a","platform":"fcmv1","pushChannel":"TOKEN","templates":{"t":{"body":"<toast/>"}}}"#,
                "template 't': FCM v1 templates are JSON"
            ),
            (
                #"{"installationId":"a","platform":"fcmv1","pushChannel":"TOKEN","templates":{"t":{"nobody":1}}}"#,
                "'templates' must be an object of templates by name"
            ),
            (
                #"{"installationId":"a","platform":"fcmv1","pushChannel":"TOKEN","pushVariables":{"n":1}}"#,
                "'pushVariables' must be an object of strings"
            ),
        ])
    func badTemplatesFailTheRow(row: String, expected: String) async throws {
        let dir = try directory(with: ["devices.jsonl": row.replacingOccurrences(of: "TOKEN", with: fcmToken) + "\n"])
        let step = try built([("hub", scalar("tutorial")), ("installations", scalar("devices.jsonl"))], directory: dir)
        let transport = ScriptedTransport()
        let result = try await step.run(in: context(transport, directory: dir))
        #expect(result.summary == "registered 1 installation on hub 'tutorial' (0 ok, 0 failed, 1 bad)")
        #expect(result.lines.contains { $0.contains(":1: " + expected) }, "\(result.lines)")
        #expect(transport.requests.isEmpty)
    }
}
