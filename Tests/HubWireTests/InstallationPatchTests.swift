import Foundation
import HubWire
import Testing

@Suite("Installation JSON-Patch")
struct InstallationPatchTests {
    static let greet = InstallationTemplate(
        body: #"{"aps":{"alert":"$(m)"}}"#, headers: ["apns-push-type": "alert"],
        expiry: "2030-01-01T00:00:00Z", tags: ["greet"])
    static let base = Installation(
        installationId: "i1", platform: "apns", pushChannel: .handle("AAAA"),
        userId: "alice", tags: ["a", "b"], templates: ["greet": greet])

    static func op(_ op: InstallationPatchOperation.Op, _ path: String, _ value: String? = nil)
        -> InstallationPatchOperation
    {
        InstallationPatchOperation(op: op, path: path, value: value)
    }

    static func patched(
        _ operations: [InstallationPatchOperation],
        _ start: Installation = base
    ) throws -> Installation {
        var installation = start
        try installation.apply(operations)
        return installation
    }

    static func expectFailure(
        _ operations: [InstallationPatchOperation], _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var installation = base
        #expect(throws: InstallationPatchError(message: message), sourceLocation: sourceLocation) {
            try installation.apply(operations)
        }
        #expect(
            installation == base, "a failed patch leaves the installation unchanged", sourceLocation: sourceLocation)
    }

    @Test(
        "add and replace /pushChannel set the channel and clear pushChannelExpired",
        arguments: [
            InstallationPatchOperation.Op.add, .replace,
        ])
    func pushChannel(_ kind: InstallationPatchOperation.Op) throws {
        var expired = Self.base
        expired.pushChannelExpired = true
        var expected = expired
        expected.pushChannel = .handle("BBBB")
        expected.pushChannelExpired = false
        #expect(try Self.patched([Self.op(kind, "/pushChannel", "BBBB")], expired) == expected)
    }

    @Test("a stringified subscription object sets a browser channel")
    func browserChannel() throws {
        let value = #"{"endpoint":"https://push.example/x","p256dh":"P","auth":"A"}"#
        #expect(
            try Self.patched([Self.op(.add, "/pushChannel", value)]).pushChannel
                == .browser(endpoint: "https://push.example/x", p256dh: "P", auth: "A"))
    }

    @Test("/userId: add and replace set it, remove deletes it")
    func userId() throws {
        #expect(try Self.patched([Self.op(.add, "/userId", "bob")]).userId == "bob")
        #expect(try Self.patched([Self.op(.replace, "/userId", "carol")]).userId == "carol")
        #expect(try Self.patched([Self.op(.remove, "/userId")]).userId == nil)
        let noUser = Installation(installationId: "i", platform: "apns", pushChannel: .handle("A"))
        #expect(try Self.patched([Self.op(.add, "/userId", "dan")], noUser).userId == "dan")
    }

    @Test(
        "add /tags unions",
        arguments: [
            ("c", ["a", "b", "c"]),
            ("a", ["a", "b"]),
            (#"["b","c","d","c"]"#, ["a", "b", "c", "d"]),
            (#" [ "e" ] "#, ["a", "b", "e"]),
        ])
    func addTags(_ value: String, _ expected: [String]) throws {
        #expect(try Self.patched([Self.op(.add, "/tags", value)]).tags == expected)
    }

    @Test("add /tags creates the array when absent")
    func addTagsCreates() throws {
        let untagged = Installation(installationId: "i", platform: "apns", pushChannel: .handle("A"))
        #expect(try Self.patched([Self.op(.add, "/tags", "x")], untagged).tags == ["x"])
    }

    @Test("remove /tags/{tag} removes one tag; the last one removes the property")
    func removeTag() throws {
        #expect(try Self.patched([Self.op(.remove, "/tags/a")]).tags == ["b"])
        #expect(try Self.patched([Self.op(.remove, "/tags/zzz")]).tags == ["a", "b"])
        let untagged = try Self.patched([Self.op(.remove, "/tags/a"), Self.op(.remove, "/tags/b")])
        #expect(untagged.tags == nil)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(untagged)) as? [String: Any]
        #expect(object?.keys.sorted() == ["installationId", "platform", "pushChannel", "templates", "userId"])
    }

    @Test("/templates/{name}: add creates or replaces from stringified JSON, remove deletes")
    func templates() throws {
        let value = #"{"body":"{\"data\":{\"m\":\"$(m)\"}}","tags":["x"]}"#
        let added = try Self.patched([Self.op(.add, "/templates/fcm", value)])
        #expect(
            added.templates == [
                "greet": Self.greet,
                "fcm": InstallationTemplate(body: #"{"data":{"m":"$(m)"}}"#, tags: ["x"]),
            ])
        let replaced = try Self.patched([Self.op(.add, "/templates/greet", #"{"body":"b"}"#)])
        #expect(replaced.templates == ["greet": InstallationTemplate(body: "b")])
        #expect(
            try Self.patched([Self.op(.replace, "/templates/greet", #"{"body":"c","expiry":"e"}"#)]).templates
                == ["greet": InstallationTemplate(body: "c", expiry: "e")])
        #expect(try Self.patched([Self.op(.remove, "/templates/greet")]).templates == nil)
        #expect(
            try Self.patched([Self.op(.add, "/templates/fcm", value), Self.op(.remove, "/templates/greet")])
                .templates?.keys.sorted() == ["fcm"])
    }

    @Test("template parts: body, headers, expiry and tags")
    func templateParts() throws {
        func template(_ operations: [InstallationPatchOperation]) throws -> InstallationTemplate? {
            try Self.patched(operations).templates?["greet"]
        }
        var expected = Self.greet
        expected.body = "new"
        #expect(try template([Self.op(.add, "/templates/greet/body", "new")]) == expected)
        #expect(try template([Self.op(.replace, "/templates/greet/body", "new")]) == expected)

        expected = Self.greet
        expected.headers = ["X-WNS-Type": "wns/toast"]
        #expect(try template([Self.op(.add, "/templates/greet/headers", #"{"X-WNS-Type":"wns/toast"}"#)]) == expected)
        expected.headers = nil
        #expect(try template([Self.op(.remove, "/templates/greet/headers")]) == expected)

        expected = Self.greet
        expected.expiry = "$(exp)"
        #expect(try template([Self.op(.replace, "/templates/greet/expiry", "$(exp)")]) == expected)
        expected.expiry = nil
        #expect(try template([Self.op(.remove, "/templates/greet/expiry")]) == expected)

        expected = Self.greet
        expected.tags = ["greet", "vip"]
        #expect(try template([Self.op(.add, "/templates/greet/tags", "vip")]) == expected)
        expected.tags = ["vip", "x"]
        #expect(try template([Self.op(.replace, "/templates/greet/tags", #"["vip","x"]"#)]) == expected)
        expected.tags = nil
        #expect(try template([Self.op(.remove, "/templates/greet/tags")]) == expected)
        #expect(try template([Self.op(.remove, "/templates/greet/tags/greet")]) == expected)
    }

    @Test("property names match in any case; JSON pointer escapes are decoded")
    func pathForms() throws {
        #expect(try Self.patched([Self.op(.add, "/PushChannel", "CCCC")]).pushChannel == .handle("CCCC"))
        #expect(try Self.patched([Self.op(.add, "/Tags", "c")]).tags == ["a", "b", "c"])
        let slashName = try Self.patched([Self.op(.add, "/templates/a~1b~0c", #"{"body":"x"}"#)])
        #expect(slashName.templates?["a/b~c"] == InstallationTemplate(body: "x"))
    }

    /// Operations and the exact error each gives.
    static let failures: [([InstallationPatchOperation], String)] = [
        (
            [op(.remove, "/pushChannel")],
            "Operation 1 (remove /pushChannel): the push channel cannot be removed; replace it instead"
        ),
        ([op(.add, "/pushChannel", " ")], "Operation 1 (add /pushChannel): the push channel cannot be empty"),
        ([op(.add, "/userId")], "Operation 1 (add /userId): add needs a value"),
        ([op(.replace, "/userId")], "Operation 1 (replace /userId): replace needs a value"),
        ([op(.remove, "/tags")], "Operation 1 (remove /tags): remove tags one at a time with path /tags/{tag}"),
        (
            [op(.replace, "/tags", "x")],
            "Operation 1 (replace /tags): replace is not supported here; add to /tags or remove /tags/{tag}"
        ),
        (
            [op(.add, "/tags/x", "x")],
            "Operation 1 (add /tags/x): add is not supported here; add tags with path /tags "
                + "and the tag as the value"
        ),
        ([op(.add, "/tags", "")], "Operation 1 (add /tags): a tag cannot be empty"),
        (
            [op(.add, "/tags", "[1,2]")],
            "Operation 1 (add /tags): the value must be a tag or a JSON array of tags (wrong type at Index 0)"
        ),
        (
            [op(.add, "/tags", "x"), op(.remove, "/pushChannel")],
            "Operation 2 (remove /pushChannel): the push channel cannot be removed; replace it instead"
        ),
        (
            [op(.add, "/templates/t", "not json")],
            "Operation 1 (add /templates/t): the value must be a template as "
                + #"stringified JSON, e.g. {"body":"…"} (not valid JSON)"#
        ),
        (
            [op(.add, "/templates/t", #"{"tags":[]}"#)],
            "Operation 1 (add /templates/t): the value must be a template "
                + #"as stringified JSON, e.g. {"body":"…"} ("body" is missing)"#
        ),
        (
            [op(.add, "/templates/greet/headers", #"{"a":1}"#)],
            "Operation 1 (add /templates/greet/headers): the value "
                + "must be headers as a stringified JSON object of strings (wrong type at a)"
        ),
        (
            [op(.remove, "/templates/greet/body")],
            "Operation 1 (remove /templates/greet/body): a template's body "
                + "cannot be removed; remove the whole template instead"
        ),
        (
            [op(.add, "/templates/nope/body", "b")],
            "Operation 1 (add /templates/nope/body): the installation has no "
                + "template 'nope'; add /templates/nope first"
        ),
        ([op(.add, "/foo", "x")], "Operation 1 (add /foo): unknown path; \(supported)"),
        (
            [op(.add, "/secondaryTiles/t/pushChannel", "x")],
            "Operation 1 (add /secondaryTiles/t/pushChannel): unknown path; \(supported)"
        ),
        (
            [op(.add, "/templates/greet/priority", "x")],
            "Operation 1 (add /templates/greet/priority): unknown path; \(supported)"
        ),
        ([op(.add, "tags", "x")], "Operation 1 (add tags): a path must start with '/'; \(supported)"),
        ([op(.remove, "/tags/")], "Operation 1 (remove /tags/): the tag in the path is empty"),
    ]

    static let supported =
        "supported paths are /pushChannel, /userId, /tags, /tags/{tag}, /templates/{name} and "
        + "/templates/{name}/body, /headers, /expiry, /tags and /tags/{tag}"

    @Test("invalid operations throw and change nothing", arguments: failures)
    func failure(_ operations: [InstallationPatchOperation], _ message: String) {
        Self.expectFailure(operations, message)
    }

    @Test("the error's description is its message")
    func errorDescription() {
        #expect(InstallationPatchError(message: "m").description == "m")
    }
}
