import HubWire
import Testing

@Suite("HubRequests: installations, telemetry, cancel")
struct HubRequestsInstallationTests {
    /// An id with a space, `/`, `:` and braces, and its encoded path segment.
    static let oddId = "seed 1/a:b{c}"
    static let oddSegment = "seed%201%2Fa%3Ab%7Bc%7D"

    static let installation: Installation = {
        var installation = Installation(
            installationId: "seed-1", platform: "apns", pushChannel: .handle("62BC"), userId: "alice",
            tags: ["follows_RedSox", "lang_en"],
            templates: [
                "news": InstallationTemplate(
                    body: #"{"aps":{"alert":"$(msg)"}}"#,
                    headers: ["apns-push-type": "alert"], tags: ["news"])
            ])
        installation.pushVariables = ["site": "https://example.com/a"]
        return installation
    }()

    @Test("PUT installation: URL, JSON content type, sorted-key body, Listen, idempotent")
    func put() {
        let request = HubRequests.putInstallation(Self.installation, at: Hub.endpoint)
        #expect(request.method == .put)
        #expect(request.url == Hub.base + "installations/seed-1?api-version=2020-06")
        #expect(request.headers == [HubHeader("Content-Type", "application/json")])
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"{"installationId":"seed-1","platform":"apns","pushChannel":"62BC","#
                + #""pushVariables":{"site":"https://example.com/a"},"tags":["follows_RedSox","lang_en"],"#
                + #""templates":{"news":{"body":"{\"aps\":{\"alert\":\"$(msg)\"}}","headers":{"apns-push-type":"alert"},"#
                + #""tags":["news"]}},"userId":"alice"}"#)
        #expect(request.isIdempotent)
        #expect(request.right == .listen)
        #expect(request.summary == "PUT installation 'seed-1'")
        #expect(request.header("authorization") == nil)
    }

    @Test("PUT installation leaves out read-only fields and encodes odd ids in the path only")
    func putReadBack() {
        var installation = Installation(
            installationId: Self.oddId, platform: "browser",
            pushChannel: .browser(endpoint: "https://push/x", p256dh: "P", auth: "A"))
        installation.pushChannelExpired = false
        installation.expirationTime = "9999-12-31T23:59:59.9999999Z"
        let request = HubRequests.putInstallation(installation, at: Hub.endpoint)
        #expect(request.url == Hub.base + "installations/\(Self.oddSegment)?api-version=2020-06")
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"{"installationId":"seed 1/a:b{c}","platform":"browser","#
                + #""pushChannel":{"auth":"A","endpoint":"https://push/x","p256dh":"P"}}"#)
        #expect(request.summary == "PUT installation 'seed 1/a:b{c}'")
    }

    @Test("PATCH installation: json-patch content type, op/path/value in order, value left out for remove")
    func patch() {
        let operations = [
            InstallationPatchOperation(op: .add, path: "/tags", value: "lang_\"fr\""),
            InstallationPatchOperation(op: .remove, path: "/tags/lang_en"),
            InstallationPatchOperation(
                op: .replace, path: "/templates/news",
                value: #"{"body":"{\"aps\":{}}","tags":["news"]}"#),
        ]
        let request = HubRequests.patchInstallation(id: Self.oddId, operations: operations, at: Hub.endpoint)
        #expect(request.method == .patch)
        #expect(request.url == Hub.base + "installations/\(Self.oddSegment)?api-version=2020-06")
        #expect(request.headers == [HubHeader("Content-Type", "application/json-patch+json")])
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"[{"op":"add","path":"/tags","value":"lang_\"fr\""},{"op":"remove","path":"/tags/lang_en"},"#
                + #"{"op":"replace","path":"/templates/news","#
                + #""value":"{\"body\":\"{\\\"aps\\\":{}}\",\"tags\":[\"news\"]}"}]"#)
        #expect(request.isIdempotent)
        #expect(request.right == .listen)
        #expect(request.summary == "PATCH installation 'seed 1/a:b{c}'")
    }

    @Test("PATCH with no operations sends an empty array")
    func patchEmpty() {
        #expect(HubRequests.patchInstallation(id: "i", operations: [], at: Hub.endpoint).body == Array("[]".utf8))
    }

    @Test("GET and DELETE installation")
    func getAndDelete() {
        let get = HubRequests.getInstallation(id: Self.oddId, at: Hub.endpoint)
        #expect(
            get
                == HubRequest(
                    method: .get, url: Hub.base + "installations/\(Self.oddSegment)?api-version=2020-06",
                    headers: [], body: [], isIdempotent: true,
                    summary: "GET installation 'seed 1/a:b{c}'", right: .listen))
        let delete = HubRequests.deleteInstallation(id: "seed-1", at: Hub.endpoint)
        #expect(
            delete
                == HubRequest(
                    method: .delete, url: Hub.base + "installations/seed-1?api-version=2020-06",
                    headers: [], body: [], isIdempotent: true,
                    summary: "DELETE installation 'seed-1'", right: .listen))
    }

    @Test("GET notification details needs Manage")
    func notificationDetails() {
        let id = "73622a22797441e4b434e8c2c14112ce-20181107001834-33331921-18"
        #expect(
            HubRequests.notificationDetails(id: id, at: Hub.endpoint)
                == HubRequest(
                    method: .get, url: Hub.base + "messages/\(id)?api-version=2020-06", headers: [], body: [],
                    isIdempotent: true, summary: "GET notification '\(id)'", right: .manage))
    }

    @Test("cancelling a scheduled send is a DELETE needing Send")
    func cancelScheduled() {
        let id = "af14e491_20181107001832_33331921_17_QNHQueue930a-S68116944391983712"
        #expect(
            HubRequests.cancelScheduled(id: id, at: Hub.endpoint)
                == HubRequest(
                    method: .delete, url: Hub.base + "schedulednotifications/\(id)?api-version=2020-06",
                    headers: [], body: [], isIdempotent: true,
                    summary: "DELETE scheduled notification '\(id)'", right: .send))
        #expect(
            HubRequests.cancelScheduled(id: "a b/c", at: Hub.endpoint).url
                == Hub.base + "schedulednotifications/a%20b%2Fc?api-version=2020-06")
    }

    @Test("the api-version follows the endpoint")
    func apiVersion() {
        let endpoint = HubEndpoint(hubBaseURL: Hub.base, hub: "myhub", apiVersion: "2015-01")
        #expect(
            HubRequests.getInstallation(id: "i", at: endpoint).url == Hub.base + "installations/i?api-version=2015-01")
    }
}
