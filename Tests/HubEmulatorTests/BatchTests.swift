import Foundation
import HTTPTypes
import HubEmulator
import Testing

/// §5.3: direct batch send, `multipart/mixed` written by hand.
@Suite("Direct batch send (§5.3)")
struct BatchTests {
    static let alert = #"{"aps":{"alert":"batch"}}"#

    static func multipart(
        boundary: String, notification: String = alert, devices: [String]?,
        partHeaderName: String = "Content-Type"
    ) -> String {
        var body =
            "--\(boundary)\r\n"
            + "\(partHeaderName): application/json;charset=utf-8\r\n"
            + "Content-Disposition: inline; name=notification\r\n\r\n"
            + notification + "\r\n"
        if let devices {
            let list = "[" + devices.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            body +=
                "--\(boundary)\r\n"
                + "\(partHeaderName): application/json\r\n"
                + "Content-Disposition: inline; name=devices\r\n\r\n"
                + list + "\r\n"
        }
        return body + "--\(boundary)--\r\n"
    }

    static func batch(
        _ client: RawClient, contentType: String, query: String = "?direct&api-version=2015-08",
        body: String, auth: String = Token.full()
    ) async throws -> RawResponse {
        try await client.request(
            .post, "/myhub/messages/$batch\(query)", auth: auth,
            headers: [
                ("ServiceBusNotification-Format", "apple"), ("Content-Type", contentType),
                ("apns-push-type", "alert"),
            ],
            body: body)
    }

    @Test("201, Location with the extra $batch segment, one delivery per handle")
    func batchSend() async throws {
        try await withEmulator { client, _ async throws in
            let devices = [apnsToken(1), apnsToken(2), apnsToken(3)]
            let response = try await Self.batch(
                client, contentType: #"multipart/mixed; boundary="nh-batch-multipart-boundary""#,
                body: Self.multipart(boundary: "nh-batch-multipart-boundary", devices: devices))
            #expect(response.status == 201, "\(response)")
            let location = response.header("Location") ?? ""
            #expect(
                location.matches(#"^https?://[^/]+/myhub/messages/\$batch/[^/?]+\?api-version=2015-08&direct$"#),
                "Location: \(location)")
            let id = try #require(response.locationLastSegment)
            #expect(id != "$batch")

            let deliveries = try await client.deliveries()
            #expect(deliveries.compactMap { $0["pushChannel"] as? String } == devices)
            for delivery in deliveries {
                #expect(delivery["payload"] as? String == Self.alert)
                #expect(delivery["notificationId"] as? String == id)
                #expect(delivery["platform"] as? String == "apns")
                #expect(delivery["installationId"] is NSNull)
                #expect(delivery["registrationId"] is NSNull)
                #expect(delivery["template"] is NSNull)
                let headers = ((delivery["headers"] as? [String: String]) ?? [:]).reduce(into: [String: String]()) {
                    $0[$1.key.lowercased()] = $1.value
                }
                #expect(headers["apns-push-type"] == "alert", "outer platform headers apply to every part: \(headers)")
            }
        }
    }

    @Test(
        "boundary forms: unquoted, JS's `boundary = \"…\"`, lower-case part header names",
        arguments: [
            "multipart/mixed; boundary=plainBoundary42",
            #"multipart/mixed; boundary = "plainBoundary42""#,
            #"Multipart/Mixed;boundary="plainBoundary42""#,
        ])
    func boundaryForms(contentType: String) async throws {
        try await withEmulator { client, _ async throws in
            let response = try await Self.batch(
                client, contentType: contentType,
                body: Self.multipart(
                    boundary: "plainBoundary42", devices: [apnsToken(7)],
                    partHeaderName: "Content-type"))
            #expect(response.status == 201, "\(contentType): \(response)")
            #expect(try await client.deliveries().count == 1)
            // JS spells the flag direct=true.
            let js = try await Self.batch(
                client, contentType: contentType, query: "?api-version=2020-06&direct=true",
                body: Self.multipart(boundary: "plainBoundary42", devices: [apnsToken(8)]))
            #expect(js.status == 201, "\(js)")
        }
    }

    /// 16 hex digits, so 1000 handles stay well inside the 64 KB request limit.
    static func shortHandle(_ seed: Int) -> String {
        let hex = String(seed, radix: 16, uppercase: true)
        return String(repeating: "B", count: 16 - hex.count) + hex
    }

    @Test("1000 handles OK, 1001 → 400")
    func deviceLimit() async throws {
        try await withEmulator { client, _ async throws in
            let ok = try await Self.batch(
                client, contentType: "multipart/mixed; boundary=b",
                body: Self.multipart(boundary: "b", devices: (1...1000).map(Self.shortHandle)))
            #expect(ok.status == 201, "\(ok)")
            #expect(try await client.deliveries().count == 1000)
            _ = try await client.request(.delete, "/_emulator/deliveries")
            let tooMany = try await Self.batch(
                client, contentType: "multipart/mixed; boundary=b",
                body: Self.multipart(boundary: "b", devices: (1...1001).map(Self.shortHandle)))
            #expect(tooMany.status == 400, "\(tooMany.status)")
            #expect(try await client.deliveries().isEmpty)
        }
    }

    @Test("malformed batches → 400")
    func malformed() async throws {
        try await withEmulator { client, _ async throws in
            let noDevices = try await Self.batch(
                client, contentType: "multipart/mixed; boundary=b",
                body: Self.multipart(boundary: "b", devices: nil))
            #expect(noDevices.status == 400, "\(noDevices)")
            let noBoundary = try await Self.batch(
                client, contentType: "multipart/mixed",
                body: Self.multipart(boundary: "b", devices: [apnsToken(1)]))
            #expect(noBoundary.status == 400, "\(noBoundary)")
            let wrongBoundary = try await Self.batch(
                client, contentType: "multipart/mixed; boundary=other",
                body: Self.multipart(boundary: "b", devices: [apnsToken(1)]))
            #expect(wrongBoundary.status == 400, "\(wrongBoundary)")
            let notMultipart = try await Self.batch(client, contentType: "application/json", body: Self.alert)
            #expect(notMultipart.status == 400, "\(notMultipart)")
            let badDevices = try await Self.batch(
                client, contentType: "multipart/mixed; boundary=b",
                body: Self.multipart(boundary: "b", devices: nil)
                    .replacingOccurrences(
                        of: "--b--\r\n",
                        with:
                            "--b\r\nContent-Type: application/json\r\nContent-Disposition: inline; name=devices\r\n\r\nnot-json\r\n--b--\r\n"
                    ))
            #expect(badDevices.status == 400, "\(badDevices)")
            let template = try await client.request(
                .post, "/myhub/messages/$batch?direct&api-version=2015-08", auth: Token.full(),
                headers: [
                    ("ServiceBusNotification-Format", "template"),
                    ("Content-Type", "multipart/mixed; boundary=b"),
                ],
                body: Self.multipart(
                    boundary: "b", notification: #"{"message":"x"}"#,
                    devices: [apnsToken(1)]))
            #expect(template.status == 400, "a template needs a registration (§5.2): \(template)")
            #expect(try await client.deliveries().isEmpty)
        }
    }

    @Test("batch needs Send; Basic tier has batch without Location")
    func rightsAndTier() async throws {
        try await withEmulator { client, _ async throws in
            let listen = try await Self.batch(
                client, contentType: "multipart/mixed; boundary=b",
                body: Self.multipart(boundary: "b", devices: [apnsToken(1)]), auth: Token.listen())
            #expect(listen.status == 401 || listen.status == 403, "\(listen)")
        }
        try await withEmulator(NH.configuration(tier: .basic)) { client, _ async throws in
            let basic = try await Self.batch(
                client, contentType: "multipart/mixed; boundary=b",
                body: Self.multipart(boundary: "b", devices: [apnsToken(1)]))
            #expect(basic.status == 201, "\(basic)")
            #expect(basic.header("Location") == nil)
            #expect(try await client.deliveries().count == 1)
        }
    }
}
