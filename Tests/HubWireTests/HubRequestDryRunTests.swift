import HubWire
import Testing

@Suite("HubRequest.dryRunLines")
struct HubRequestDryRunTests {
    static let send = HubRequests.send(
        NotificationRequest(
            format: "template", body: Array(#"{"message":"Hi"}"#.utf8), target: .tags("follows_RedSox")),
        at: Hub.endpoint)

    @Test("request line, redacted Authorization, headers, blank line, body")
    func exactLines() {
        #expect(
            Self.send.dryRunLines(redactedAuthorization: "SharedAccessSignature sr=x&sig=<redacted>&se=1&skn=k") == [
                "POST https://contoso-nh.servicebus.windows.net/myhub/messages?api-version=2020-06",
                "Authorization: SharedAccessSignature sr=x&sig=<redacted>&se=1&skn=k",
                "Content-Type: application/json;charset=utf-8",
                "ServiceBusNotification-Format: template",
                "ServiceBusNotification-Tags: follows_RedSox",
                "",
                #"{"message":"Hi"}"#,
            ])
    }

    @Test("without a redacted value there is no Authorization line")
    func noAuthorization() {
        #expect(
            Self.send.dryRunLines(redactedAuthorization: nil) == [
                "POST https://contoso-nh.servicebus.windows.net/myhub/messages?api-version=2020-06",
                "Content-Type: application/json;charset=utf-8",
                "ServiceBusNotification-Format: template",
                "ServiceBusNotification-Tags: follows_RedSox",
                "",
                #"{"message":"Hi"}"#,
            ])
    }

    @Test("an Authorization header smuggled into a request is never shown; only the passed value is")
    func neverShowsRealAuthorization() throws {
        let token = SASSigner(keyName: Sample.keyName, key: Sample.key)
            .token(
                forResource: "https://contoso-nh.servicebus.windows.net/myhub", expiry: Sample.expiry, hexCase: .upper)
        var request = HubRequests.deleteRegistration(id: "r-1", at: Hub.endpoint)
        request.headers.insert(HubHeader("authorization", token.headerValue), at: 0)
        let withoutRedacted = request.dryRunLines(redactedAuthorization: nil)
        #expect(
            withoutRedacted == [
                "DELETE https://contoso-nh.servicebus.windows.net/myhub/registrations/r-1?api-version=2020-06",
                "If-Match: *",
            ])
        let withRedacted = request.dryRunLines(redactedAuthorization: token.redacted)
        #expect(
            withRedacted == [
                "DELETE https://contoso-nh.servicebus.windows.net/myhub/registrations/r-1?api-version=2020-06",
                "Authorization: \(token.redacted)",
                "If-Match: *",
            ])
        let signature = try #require(token.headerValue.split(separator: "&").first { $0.hasPrefix("sig=") })
        for lines in [withoutRedacted, withRedacted] {
            #expect(!lines.joined(separator: "\n").contains(signature))
            #expect(!lines.joined(separator: "\n").contains(Sample.key))
        }
    }

    @Test("no builder puts an Authorization header, a key or a signature into a request")
    func buildersCarryNoSecrets() {
        let requests = [
            HubRequests.putInstallation(
                Installation(installationId: "i", platform: "apns", pushChannel: .handle("A")),
                at: Hub.endpoint),
            HubRequests.createRegistrationID(at: Hub.endpoint),
            Self.send,
            HubRequests.directBatch(
                format: "apple", payload: [], payloadContentType: nil, handles: ["A"], headers: [],
                at: Hub.endpoint),
        ]
        for request in requests {
            #expect(request.header("Authorization") == nil)
            let text = request.dryRunLines(redactedAuthorization: nil).joined(separator: "\n")
            #expect(!text.contains("Authorization"))
            #expect(!text.contains("SharedAccessSignature"))
        }
    }

    @Test("an empty body ends the lines after the headers")
    func emptyBody() {
        #expect(
            HubRequests.getInstallation(id: "seed-1", at: Hub.endpoint).dryRunLines(redactedAuthorization: "<sas>")
                == [
                    "GET https://contoso-nh.servicebus.windows.net/myhub/installations/seed-1?api-version=2020-06",
                    "Authorization: <sas>",
                ])
    }

    @Test("a multi-line body is one element per line, CRs dropped (the batch body)")
    func multilineBody() {
        let request = HubRequests.directBatch(
            format: "apple", payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8),
            payloadContentType: nil, handles: ["TOKEN1", "TOKEN2"], headers: [],
            at: Hub.endpoint)
        #expect(
            request.dryRunLines(redactedAuthorization: nil) == [
                "POST https://contoso-nh.servicebus.windows.net/myhub/messages/$batch?api-version=2020-06&direct",
                #"Content-Type: multipart/mixed; boundary="nh-batch-multipart-boundary""#,
                "ServiceBusNotification-Format: apple",
                "",
                "--nh-batch-multipart-boundary",
                "Content-Type: application/json;charset=utf-8",
                "Content-Disposition: inline; name=notification",
                "",
                #"{"aps":{"alert":"hi"}}"#,
                "--nh-batch-multipart-boundary",
                "Content-Type: application/json",
                "Content-Disposition: inline; name=devices",
                "",
                #"["TOKEN1","TOKEN2"]"#,
                "--nh-batch-multipart-boundary--",
            ])
    }

    @Test("a body that is not UTF-8 shows its size")
    func binaryBody() {
        let request = HubRequests.send(
            NotificationRequest(
                format: "windows", body: [0x00, 0xC3, 0x28, 0xFF],
                target: .broadcast,
                headers: [HubHeader("X-WNS-Type", "wns/raw")]),
            at: Hub.endpoint)
        #expect(
            request.dryRunLines(redactedAuthorization: nil) == [
                "POST https://contoso-nh.servicebus.windows.net/myhub/messages?api-version=2020-06",
                "Content-Type: application/octet-stream",
                "ServiceBusNotification-Format: windows",
                "X-WNS-Type: wns/raw",
                "",
                "<4 bytes>",
            ])
    }
}
