import Foundation
import HubWire
import Testing

@Suite("Installation JSON")
struct InstallationTests {
    static func encode<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode(_ json: String) throws -> Installation {
        try JSONDecoder().decode(Installation.self, from: Data(json.utf8))
    }

    @Test("a minimal installation encodes without nil fields")
    func encodesMinimal() throws {
        let installation = Installation(installationId: "inst-1", platform: "apns", pushChannel: .handle("AB12"))
        #expect(try Self.encode(installation) == #"{"installationId":"inst-1","platform":"apns","pushChannel":"AB12"}"#)
    }

    @Test("every field encodes under its exact key")
    func encodesAllKeys() throws {
        var installation = Installation(
            installationId: "inst-2", platform: "fcmv1", pushChannel: .handle("tok/1"), userId: "alice@example",
            tags: ["a", "b"],
            templates: [
                "news": InstallationTemplate(
                    body: #"{"m":"$(m)"}"#, headers: ["h": "v"], expiry: "e",
                    tags: ["news"])
            ])
        installation.pushChannelExpired = false
        installation.expirationTime = "9999-12-31T23:59:59.9999999Z"
        installation.pushVariables = ["k": "v"]
        #expect(
            try Self.encode(installation) == #"{"expirationTime":"9999-12-31T23:59:59.9999999Z","#
                + #""installationId":"inst-2","platform":"fcmv1","pushChannel":"tok/1","pushChannelExpired":false,"#
                + #""pushVariables":{"k":"v"},"tags":["a","b"],"#
                + #""templates":{"news":{"body":"{\"m\":\"$(m)\"}","expiry":"e","headers":{"h":"v"},"tags":["news"]}},"#
                + #""userId":"alice@example"}"#)
        #expect(try Self.decode(Self.encode(installation)) == installation)
    }

    @Test("decodes the recorded GET response (nh-rest-api.md §3)")
    func decodesRealGet() throws {
        let json =
            #"{"installationId":"95e4…","pushChannel":"62BC…A8FA","pushChannelExpired":false,"#
            + #""platform":"apns","expirationTime":"9999-12-31T23:59:59.9999999Z","tags":["tag1"],"#
            + #""pushVariables":{"var1":"value1"},"templates":{"Template Name":{"body":"{\"aps\":{\"alert\":\"alert!\"}}","#
            + #""expiry":"2018-11-07T16:18:32.6641371-08:00","tags":["Template Name"]}}}"#
        var expected = Installation(
            installationId: "95e4…", platform: "apns", pushChannel: .handle("62BC…A8FA"), tags: ["tag1"],
            templates: [
                "Template Name": InstallationTemplate(
                    body: #"{"aps":{"alert":"alert!"}}"#,
                    expiry: "2018-11-07T16:18:32.6641371-08:00",
                    tags: ["Template Name"])
            ])
        expected.pushChannelExpired = false
        expected.expirationTime = "9999-12-31T23:59:59.9999999Z"
        expected.pushVariables = ["var1": "value1"]
        #expect(try Self.decode(json) == expected)
    }

    @Test("unknown keys are ignored")
    func ignoresUnknownKeys() throws {
        let json =
            #"{"installationId":"i","platform":"wns","pushChannel":"https://wns/x","#
            + #""lastActiveOn":"2024-01-01","lastUpdate":"2024-01-02","#
            + #""secondaryTiles":{"tile":{"pushChannel":"c","tags":["t"]}},"tags":null}"#
        #expect(
            try Self.decode(json)
                == Installation(
                    installationId: "i", platform: "wns",
                    pushChannel: .handle("https://wns/x")))
    }

    @Test("a browser push channel is an object")
    func browserChannel() throws {
        let json =
            #"{"installationId":"b","platform":"browser","#
            + #""pushChannel":{"endpoint":"https://fcm.googleapis.com/fcm/send/x","p256dh":"BP","auth":"AU"}}"#
        let installation = try Self.decode(json)
        let channel = PushChannel.browser(endpoint: "https://fcm.googleapis.com/fcm/send/x", p256dh: "BP", auth: "AU")
        #expect(installation.pushChannel == channel)
        #expect(installation.pushChannel.handle == "https://fcm.googleapis.com/fcm/send/x")
        #expect(PushChannel.handle("AB").handle == "AB")
        #expect(
            try Self.encode(installation) == #"{"installationId":"b","platform":"browser","#
                + #""pushChannel":{"auth":"AU","endpoint":"https://fcm.googleapis.com/fcm/send/x","p256dh":"BP"}}"#)
    }

    /// JSON, then the failure kind and coding path expected.
    static let typeErrors: [(String, String, [String])] = [
        (#"{"installationId":"i","platform":"apns","pushChannel":"c","tags":"tag1"}"#, "typeMismatch", ["tags"]),
        (#"{"installationId":"i","platform":"apns","pushChannel":42}"#, "typeMismatch", ["pushChannel"]),
        (
            #"{"installationId":"i","platform":"apns","pushChannel":"c","pushChannelExpired":"false"}"#,
            "typeMismatch", ["pushChannelExpired"]
        ),
        (
            #"{"installationId":"i","platform":"apns","pushChannel":"c","pushVariables":{"a":1}}"#,
            "typeMismatch", ["pushVariables", "a"]
        ),
        (
            #"{"installationId":"i","platform":"apns","pushChannel":"c","templates":{"t":{"body":1}}}"#,
            "typeMismatch", ["templates", "t", "body"]
        ),
        (#"{"installationId":7,"platform":"apns","pushChannel":"c"}"#, "typeMismatch", ["installationId"]),
        (#"{"installationId":"i","pushChannel":"c"}"#, "keyNotFound", ["platform"]),
        (
            #"{"installationId":"i","platform":"browser","pushChannel":{"endpoint":"e","p256dh":"p"}}"#,
            "keyNotFound", ["pushChannel", "auth"]
        ),
        (
            #"{"installationId":"i","platform":"apns","pushChannel":"c","templates":{"t":{"tags":[]}}}"#,
            "keyNotFound", ["templates", "t", "body"]
        ),
    ]

    @Test("wrong types fail with a DecodingError naming the field", arguments: typeErrors)
    func rejectsWrongTypes(_ json: String, _ kind: String, _ path: [String]) {
        do {
            _ = try Self.decode(json)
            Issue.record("decoded \(json)")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(kind == "typeMismatch")
            #expect(context.codingPath.map(\.stringValue) == path)
        } catch let DecodingError.keyNotFound(key, context) {
            #expect(kind == "keyNotFound")
            #expect(context.codingPath.map(\.stringValue) + [key.stringValue] == path)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a push channel that is neither string nor object says what it must be")
    func pushChannelMessage() {
        do {
            _ = try Self.decode(#"{"installationId":"i","platform":"apns","pushChannel":[1]}"#)
            Issue.record("decoded")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(
                context.debugDescription == "pushChannel must be a string (the PNS handle) or, for browser "
                    + "installations, an object with endpoint, p256dh and auth")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("patch operations use op, path and value; value is left out when nil")
    func patchOperationJSON() throws {
        let operations = [
            InstallationPatchOperation(op: .add, path: "/tags", value: "tag1"),
            InstallationPatchOperation(op: .remove, path: "/userId"),
        ]
        #expect(
            try Self.encode(operations)
                == #"[{"op":"add","path":"/tags","value":"tag1"},{"op":"remove","path":"/userId"}]"#)
        let decoded = try JSONDecoder().decode(
            [InstallationPatchOperation].self,
            from: Data(
                #"[{"op":"replace","path":"/templates/t","value":"{\"body\":\"b\"}"},{"op":"remove","path":"/tags/a"}]"#
                    .utf8))
        #expect(
            decoded == [
                InstallationPatchOperation(op: .replace, path: "/templates/t", value: #"{"body":"b"}"#),
                InstallationPatchOperation(op: .remove, path: "/tags/a"),
            ])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(InstallationPatchOperation.self, from: Data(#"{"op":"move","path":"/a"}"#.utf8))
        }
    }
}
