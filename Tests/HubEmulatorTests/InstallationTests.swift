import Foundation
import HTTPTypes
import HubEmulator
import Testing

/// §3: installations over raw HTTP (PUT/GET/DELETE, PATCH semantics, limits).
@Suite("Installations (§3)")
struct InstallationTests {
    static let token = "62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA"

    static func object(_ response: RawResponse, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
        let value = response.json as? [String: Any]
        #expect(value != nil, "not a JSON object: \(response)", sourceLocation: sourceLocation)
        return value ?? [:]
    }

    static func templateTags(_ installation: [String: Any], _ name: String) -> [String]? {
        ((installation["templates"] as? [String: Any])?[name] as? [String: Any])?["tags"] as? [String]
    }

    @Test("PUT 200 empty, GET 200 JSON with the template-name tag added, DELETE 204, then 404")
    func lifecycle() async throws {
        try await withEmulator { client, _ async throws in
            let put = try await client.putInstallation("inst-1", seedInstallation(id: "inst-1"))
            #expect(put.status == 200, "\(put)")
            #expect(put.body.isEmpty)
            // Empty and unlabelled, as today's service answers (the JS SDK's recordings, 2024).
            #expect(put.header("Content-Type") == nil, "\(put)")
            #expect(put.header("Content-Length") == "0", "\(put)")

            let get = try await client.getInstallation("inst-1")
            #expect(get.status == 200, "\(get)")
            // Recorded NH traffic labels the JSON body application/xml; the emulator does the same (docs §2.2).
            #expect(normalizedContentType(get.header("Content-Type")) == "application/xml;charset=utf-8", "\(get)")
            let body = Self.object(get)
            #expect(body["installationId"] as? String == "inst-1")
            #expect(body["platform"] as? String == "apns")
            #expect(body["pushChannel"] as? String == Self.token)
            #expect(body["pushChannelExpired"] as? Bool == false)
            #expect(body["tags"] as? [String] == ["12345"])
            let template = ((body["templates"] as? [String: Any])?["genericTemplate"] as? [String: Any]) ?? [:]
            #expect(template["body"] as? String == #"{"aps":{"alert":"$(message)"}}"#)
            #expect(template["tags"] as? [String] == ["genericTemplate"])

            let delete = try await client.request(.delete, "/myhub/installations/inst-1?\(NH.api)", auth: Token.full())
            #expect(delete.status == 204, "\(delete)")
            #expect(delete.body.isEmpty)
            #expect(delete.header("Content-Type") == nil, "\(delete)")

            let missing = try await client.getInstallation("inst-1")
            AuthTests.expectError(missing, 404, detailPrefix: "Installation not found.")
        }
    }

    @Test("PUT is a full replace; the template-name tag is not duplicated on read-back")
    func putReplaces() async throws {
        try await withEmulator { client, _ async throws in
            _ = try await client.putInstallation("inst-1", seedInstallation(id: "inst-1", tags: ["a", "b"]))
            let replaced = """
                {"installationId":"inst-1","platform":"apns","pushChannel":"\(apnsToken(7))","tags":["c"],\
                "templates":{"t1":{"body":"{\\"aps\\":{\\"alert\\":\\"$(m)\\"}}","tags":["t1","x"]}}}
                """
            #expect(try await client.putInstallation("inst-1", replaced).status == 200)
            let body = Self.object(try await client.getInstallation("inst-1"))
            #expect(body["tags"] as? [String] == ["c"])
            #expect(body["pushChannel"] as? String == apnsToken(7))
            #expect((body["templates"] as? [String: Any])?.keys.sorted() == ["t1"])
            #expect(Set(Self.templateTags(body, "t1") ?? []) == ["t1", "x"])
            #expect(Self.templateTags(body, "t1")?.count == 2)
        }
    }

    @Test("DELETE of a missing installation is idempotent (204); GET unknown id → 404")
    func deleteMissing() async throws {
        try await withEmulator { client, _ async throws in
            let delete = try await client.request(.delete, "/myhub/installations/nobody?\(NH.api)", auth: Token.full())
            #expect(delete.status == 204 || delete.status == 404, "\(delete)")
            AuthTests.expectError(try await client.getInstallation("nobody"), 404)
        }
    }

    @Test("platform is compared case-insensitively (.NET serialises fcmV1)")
    func platformCase() async throws {
        try await withEmulator { client, _ async throws in
            let body = #"{"installationId":"f-1","platform":"fcmV1","pushChannel":"fcm-token-1","tags":["t"]}"#
            #expect(try await client.putInstallation("f-1", body).status == 200)
            let get = Self.object(try await client.getInstallation("f-1"))
            #expect((get["platform"] as? String)?.lowercased() == "fcmv1")
        }
    }

    @Test("installations are per hub")
    func perHub() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("inst-1", seedInstallation(id: "inst-1")).status == 200)
            let other = try await client.request(
                .get, "/otherhub/installations/inst-1?\(NH.api)",
                auth: Token.js(keyName: NH.otherName, key: NH.otherKey))
            #expect(other.status == 404, "\(other)")
        }
    }

    @Test("invalid installation bodies → 400")
    func invalidBodies() async throws {
        try await withEmulator { client, _ async throws in
            let cases: [(String, String)] = [
                ("not JSON", "{"),
                ("no platform", #"{"installationId":"bad-1","pushChannel":"abc"}"#),
                ("no pushChannel", #"{"installationId":"bad-1","platform":"apns"}"#),
                ("unknown platform", #"{"installationId":"bad-1","platform":"pigeon","pushChannel":"abc"}"#),
                (
                    "id differs from the path",
                    #"{"installationId":"someone-else","platform":"apns","pushChannel":"abc"}"#
                ),
                (
                    "baidu is not supported for installations",
                    #"{"installationId":"bad-1","platform":"baidu","pushChannel":"abc"}"#
                ),
                (
                    "template without body",
                    #"{"installationId":"bad-1","platform":"apns","pushChannel":"abc","templates":{"t":{}}}"#
                ),
            ]
            for (name, body) in cases {
                let response = try await client.putInstallation("bad-1", body)
                #expect(response.status == 400, "\(name): \(response)")
            }
            AuthTests.expectError(try await client.getInstallation("bad-1"), 404)
        }
    }

    // MARK: limits (§6, §8)

    @Test("tag limits: 60 tags OK, 61 → 400; 120 chars OK, 121 → 400; bad characters → 400")
    func tagLimits() async throws {
        try await withEmulator { client, _ async throws in
            func body(_ tags: [String]) -> String {
                let list = tags.map { "\"\($0)\"" }.joined(separator: ",")
                return
                    #"{"installationId":"lim-1","platform":"apns","pushChannel":"\#(apnsToken(3))","tags":[\#(list)]}"#
            }
            #expect(try await client.putInstallation("lim-1", body((1...60).map { "t\($0)" })).status == 200)
            #expect(try await client.putInstallation("lim-1", body((1...61).map { "t\($0)" })).status == 400)
            #expect(try await client.putInstallation("lim-1", body([String(repeating: "a", count: 120)])).status == 200)
            #expect(try await client.putInstallation("lim-1", body([String(repeating: "a", count: 121)])).status == 400)
            #expect(try await client.putInstallation("lim-1", body(["a_b@c#d.e:f-g"])).status == 200)
            #expect(try await client.putInstallation("lim-1", body(["has space"])).status == 400)
            #expect(try await client.putInstallation("lim-1", body(["comma,tag"])).status == 400)
            #expect(try await client.putInstallation("lim-1", body(["$UserId:{alice}"])).status == 200)
            // The last accepted PUT wins.
            #expect(Self.object(try await client.getInstallation("lim-1"))["tags"] as? [String] == ["$UserId:{alice}"])
        }
    }

    // MARK: PATCH (§3.1)

    static let patchBase = """
        {"installationId":"p-1","platform":"apns","pushChannel":"\(apnsToken(1))","tags":["a","b"],\
        "templates":{"t1":{"body":"{\\"aps\\":{\\"alert\\":\\"$(message)\\"}}"}}}
        """

    func patched(_ client: RawClient, _ ops: String) async throws -> [String: Any] {
        let response = try await client.patchInstallation("p-1", ops)
        #expect(response.status == 200, "\(ops): \(response)")
        return Self.object(try await client.getInstallation("p-1"))
    }

    @Test("PATCH add /tags unions, remove /tags/{tag} deletes one, removing the last drops the property")
    func patchTags() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("p-1", Self.patchBase).status == 200)
            var body = try await patched(client, #"[{"op":"add","path":"/tags","value":"c"}]"#)
            #expect(Set(body["tags"] as? [String] ?? []) == ["a", "b", "c"])
            body = try await patched(client, #"[{"op":"add","path":"/tags","value":"a"}]"#)
            #expect((body["tags"] as? [String])?.count == 3)
            body = try await patched(client, #"[{"op":"remove","path":"/tags/b"}]"#)
            #expect(Set(body["tags"] as? [String] ?? []) == ["a", "c"])
            body = try await patched(client, #"[{"op":"remove","path":"/tags/a"},{"op":"remove","path":"/tags/c"}]"#)
            #expect(body["tags"] == nil, "tags should be gone: \(body)")
            body = try await patched(client, #"[{"op":"add","path":"/tags","value":"fresh"}]"#)
            #expect(body["tags"] as? [String] == ["fresh"])
        }
    }

    @Test("PATCH pushChannel and userId")
    func patchChannelAndUser() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("p-1", Self.patchBase).status == 200)
            var body = try await patched(
                client, #"[{"op":"replace","path":"/pushChannel","value":"\#(apnsToken(2))"}]"#)
            #expect(body["pushChannel"] as? String == apnsToken(2))
            #expect(body["pushChannelExpired"] as? Bool == false)
            body = try await patched(client, #"[{"op":"add","path":"/userId","value":"alice"}]"#)
            #expect(body["userId"] as? String == "alice")
            body = try await patched(client, #"[{"op":"replace","path":"/userId","value":"bob"}]"#)
            #expect(body["userId"] as? String == "bob")
            body = try await patched(client, #"[{"op":"remove","path":"/userId"}]"#)
            #expect(body["userId"] == nil)
        }
    }

    @Test("PATCH templates: add stringified template, replace body, union tags, remove template")
    func patchTemplates() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("p-1", Self.patchBase).status == 200)
            // value is a *stringified* JSON object.
            let t2 = ##"{\"body\":\"{\\\"aps\\\":{\\\"badge\\\":\\\"#(n)\\\"}}\",\"tags\":[\"x\"]}"##
            var body = try await patched(client, #"[{"op":"add","path":"/templates/t2","value":"\#(t2)"}]"#)
            let templates = body["templates"] as? [String: Any] ?? [:]
            #expect(templates.keys.sorted() == ["t1", "t2"])
            #expect((templates["t2"] as? [String: Any])?["body"] as? String == ##"{"aps":{"badge":"#(n)"}}"##)
            #expect(Set(Self.templateTags(body, "t2") ?? []) == ["t2", "x"])

            body = try await patched(
                client, #"[{"op":"replace","path":"/templates/t1/body","value":"{\"aps\":{\"alert\":\"$(other)\"}}"}]"#)
            #expect(
                ((body["templates"] as? [String: Any])?["t1"] as? [String: Any])?["body"] as? String
                    == #"{"aps":{"alert":"$(other)"}}"#)

            body = try await patched(client, #"[{"op":"add","path":"/templates/t1/tags","value":"y"}]"#)
            #expect(Set(Self.templateTags(body, "t1") ?? []) == ["t1", "y"])

            body = try await patched(client, #"[{"op":"remove","path":"/templates/t1/tags/y"}]"#)
            #expect(Self.templateTags(body, "t1") == ["t1"])

            body = try await patched(
                client, #"[{"op":"add","path":"/templates/t1/headers","value":"{\"apns-priority\":\"5\"}"}]"#)
            let headers =
                ((body["templates"] as? [String: Any])?["t1"] as? [String: Any])?["headers"] as? [String: String]
            #expect(headers == ["apns-priority": "5"], "\(body)")

            body = try await patched(client, #"[{"op":"remove","path":"/templates/t2"}]"#)
            #expect((body["templates"] as? [String: Any])?.keys.sorted() == ["t1"])
        }
    }

    @Test("PATCH changes targeting: a tag added by PATCH is reachable by a send")
    func patchAffectsSends() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("p-1", Self.patchBase).status == 200)
            #expect(
                try await client.patchInstallation("p-1", #"[{"op":"add","path":"/tags","value":"late"}]"#).status
                    == 200)
            let send = try await client.sendTemplate(#"{"message":"patched"}"#, tags: "late")
            #expect(send.status == 201)
            let deliveries = try await client.deliveries()
            #expect(deliveries.count == 1)
            #expect(deliveries.first?["payload"] as? String == #"{"aps":{"alert":"patched"}}"#)
        }
    }

    @Test("PATCH on an unknown installation → 404; malformed patch → 400")
    func patchErrors() async throws {
        try await withEmulator { client, _ async throws in
            let unknown = try await client.patchInstallation("ghost", #"[{"op":"add","path":"/tags","value":"x"}]"#)
            #expect(unknown.status == 404, "\(unknown)")
            #expect(try await client.putInstallation("p-1", Self.patchBase).status == 200)
            let notArray = try await client.patchInstallation("p-1", #"{"op":"add","path":"/tags","value":"x"}"#)
            #expect(notArray.status == 400, "\(notArray)")
            let badOp = try await client.patchInstallation("p-1", #"[{"op":"move","path":"/tags","value":"x"}]"#)
            #expect(badOp.status == 400, "\(badOp)")
            // A PATCH may not push tags over the limit of 60.
            let many = (1...60).map { #"{"op":"add","path":"/tags","value":"n\#($0)"}"# }.joined(separator: ",")
            let tooMany = try await client.patchInstallation("p-1", "[\(many)]")
            #expect(tooMany.status == 400, "\(tooMany.status)")
            let body = Self.object(try await client.getInstallation("p-1"))
            #expect(Set(body["tags"] as? [String] ?? []) == ["a", "b"], "a rejected PATCH must not apply partly")
        }
    }
}
