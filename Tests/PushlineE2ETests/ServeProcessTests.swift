import CommandTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PasswordHashing
import Testing

/// One request through HummingbirdTesting's raw HTTP/1.1 client (neither Pushline's client nor Foundation's).
func rawHTTP(_ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil) async throws -> (
    Int, String
) {
    let parsed = try #require(URL(string: url))
    let port = try #require(parsed.port)
    var fields = HTTPFields()
    for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
    let target = parsed.path + (parsed.query.map { "?" + $0 } ?? "")
    let request = TestClient.Request(
        target, method: HTTPRequest.Method(method)!, authority: "127.0.0.1:\(port)", headers: fields,
        body: body.map { ByteBuffer(string: $0) })
    let response = try await TestClient.withClient(
        host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(60))
    ) { client in
        try await client.execute(request)
    }
    return (Int(response.status.code), response.body.map { String(buffer: $0) } ?? "")
}

/// The real `pushline serve` against the real `pushline emulator`, over loopback, as the seed's apps call it.
@Suite(.serialized) struct ServeProcessTests {
    static let serviceFile: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("pipelines/notify-users.service.yaml").path
    }()

    /// A real `pushline emulator` on a free port: the process, its base URL and its Full connection string.
    static func startEmulator() async throws -> (PushlineProcess, String, String) {
        let emulator = try await EmulatorProcess.start()
        return (
            emulator.process, emulator.base,
            try #require(emulator.connection(named: "DefaultFullSharedAccessSignature"))
        )
    }

    func basic(_ user: String, _ password: String) -> [String: String] {
        [
            "Authorization": "Basic " + Data("\(user):\(password)".utf8).base64EncodedString(),
            "Content-Type": "application/json",
        ]
    }

    @Test func theSeedAppsFlowRunsThroughTheRealServerAndOnlyBobsDeviceReceives() async throws {
        let (emulator, emulatorBase, connection) = try await Self.startEmulator()
        let users = FileManager.default.temporaryDirectory.appendingPathComponent("pushline-users-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: users) }
        try "alice:\(PasswordHash.make("alice-secret", cost: 4))\nbob:\(PasswordHash.make("bob-secret", cost: 4))\n"
            .write(toFile: users, atomically: true, encoding: .utf8)
        let apiKey = "backend-key-0123456789abcdef"
        let server = try PushlineProcess(
            ["serve", Self.serviceFile, "--port", "0"],
            environment: [
                "NH_CONNECTION": connection, "NH_HUB": "myhub", "PUSHLINE_USERS": users, "PUSHLINE_API_KEY": apiKey,
            ])
        let started = try await server.waitForOutput(containing: "stop with Ctrl-C")
        let base = try #require(
            started.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        #expect(started.contains("2 users, 1 API key"))

        let aliceToken = String(repeating: "A", count: 63) + "1"
        let bobToken = String(repeating: "B", count: 63) + "2"
        for (user, password, token) in [("alice", "alice-secret", aliceToken), ("bob", "bob-secret", bobToken)] {
            let (created, idText) = try await rawHTTP(
                "POST", "\(base)api/register?handle=\(token)", headers: basic(user, password))
            #expect(created == 200, "\(idText)")
            let id = String(idText.dropFirst().dropLast())
            let (put, putText) = try await rawHTTP(
                "PUT", "\(base)api/register/\(id)", headers: basic(user, password),
                body: #"{"Platform":"apns","Handle":"\#(token)","Tags":["topic_lunch"]}"#)
            #expect(put == 200, "\(putText)")
        }
        // A wrong password and a tag naming another user are refused.
        #expect(
            try await rawHTTP("POST", "\(base)api/register?handle=\(aliceToken)", headers: basic("alice", "bob-secret"))
                .0 == 401)
        let (sent, sentText) = try await rawHTTP(
            "POST", "\(base)api/notifications?pns=apns&to_tag=bob", headers: basic("alice", "alice-secret"),
            body: #""Lunch at noon?""#)
        #expect(sent == 200, "\(sentText)")
        let (keySent, _) = try await rawHTTP(
            "POST", "\(base)api/notifications?pns=apns&to_tag=alice",
            headers: ["apikey": apiKey, "Content-Type": "application/json"], body: #""Build finished""#)
        #expect(keySent == 200)

        let deliveries = try await rawHTTP("GET", "\(emulatorBase)_emulator/deliveries").1
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(deliveries.utf8)) as? [[String: Any]])
        #expect(parsed.count == 2)
        #expect(parsed.first?["pushChannel"] as? String == bobToken)
        #expect((parsed.first?["payload"] as? String)?.contains("From alice: Lunch at noon?") == true)
        #expect(parsed.last?["pushChannel"] as? String == aliceToken)
        #expect((parsed.last?["payload"] as? String)?.contains("From backend: Build finished") == true)
        #expect(try await rawHTTP("GET", "\(base)readyz").0 == 200)

        #expect(try await server.stop() == 0)
        #expect(server.stdout.contains("server stopped"))
        for secret in [
            "alice-secret", "bob-secret", apiKey, connection.components(separatedBy: "SharedAccessKey=").last ?? "-",
        ] {
            #expect(!server.stdout.contains(secret))
        }
        #expect(server.stdout.contains(#""route":"POST /api/notifications""#))
        #expect(try await emulator.stop() == 0)
    }

    @Test func anInvalidServiceFileExitsTwoNamingTheLine() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-bad-\(UUID().uuidString).yaml"
        ).path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try """
        version: 1
        hubs:
          users: { connection: "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=a;SharedAccessKey=b", hub: h }
        service:
          hub: userz
          api-keys:
            ops: { sha256: "abc", scopes: [admin] }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let server = try PushlineProcess(["serve", file, "--port", "0"])
        #expect(try await server.waitForExit() == 2)
        #expect(server.stdout.contains("\(file):5:8: error: unknown hub 'userz'"))
        #expect(server.stdout.contains("did you mean 'users'"))
        #expect(server.stdout.contains("\(file):7:20: error: API key 'ops': `sha256` must be 64 hexadecimal digits"))
    }

    /// The official sample's app flow (a device key in the `apikey` header), a sender key's request, a body over the
    /// limit and a burst over the per-identity limit, against the real processes; the server stays up throughout.
    @Test func theSampleAppsFlowAndTheLimitsHoldOverTheWire() async throws {
        let (emulator, emulatorBase, connection) = try await Self.startEmulator()
        let root = URL(fileURLWithPath: Self.serviceFile).deletingLastPathComponent().deletingLastPathComponent().path
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-sample-\(UUID().uuidString).yaml"
        ).path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try """
        version: 1
        hubs:
          users: { connection: "${env:NH_CONNECTION}", hub: myhub }
        templates:
          request-apns: { platform: apns, body: '{"aps":{"alert":"$(alertMessage)"},"action":"$(alertAction)"}' }
          notify-apns: { platform: apns, body: \(root)/templates/notify-user.apns.json }
        service:
          hub: users
          api-keys:
            erin-phone: { key: "${env:DEVICE_KEY}", scopes: [register], user: erin }
            backend: { key: "${env:SENDER_KEY}", scopes: [send] }
          notify: { templates: { apns: notify-apns } }
          requests: { templates: { apns: request-apns } }
          limits: { body-bytes: 1024, per-identity: 5 }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let deviceKey = "device-key-0123456789abcdef"
        let senderKey = "sender-key-0123456789abcdef"
        let server = try PushlineProcess(
            ["serve", file, "--port", "0"],
            environment: [
                "NH_CONNECTION": connection, "DEVICE_KEY": deviceKey, "SENDER_KEY": senderKey,
            ])
        let started = try await server.waitForOutput(containing: "stop with Ctrl-C")
        let base = try #require(
            started.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        let token = String(repeating: "C", count: 63) + "3"
        let device = ["apikey": deviceKey, "Content-Type": "application/json"]
        let (put, putText) = try await rawHTTP(
            "PUT", "\(base)api/notifications/installations", headers: device,
            body: #"{"installationId":"erin-phone-1","platform":"apns","pushChannel":"\#(token)","tags":[]}"#)
        #expect(put == 200, "\(putText)")
        let sender = ["apikey": senderKey, "Content-Type": "application/json"]
        #expect(
            try await rawHTTP(
                "POST", "\(base)api/notifications/requests", headers: sender,
                body: #"{"text":"Build green","action":"open","tags":[]}"#
            ).0 == 422)
        let (sent, sentText) = try await rawHTTP(
            "POST", "\(base)api/notifications/requests", headers: sender,
            body: #"{"text":"Build green","action":"open","tags":["username:erin"]}"#)
        #expect(sent == 200, "\(sentText)")
        let deliveries = try await rawHTTP("GET", "\(emulatorBase)_emulator/deliveries").1
        #expect(deliveries.contains(#"\"alert\":\"Build green\""#), "\(deliveries)")
        // 2 MB is refused and the server answers the next request.
        let (big, _) = try await rawHTTP(
            "POST", "\(base)api/notifications/requests", headers: sender,
            body: String(repeating: "x", count: 2 << 20))
        #expect(big == 413)
        // Five a minute per identity: the device's requests in a row are refused once its five are spent (a few more tries
        // only when a loaded machine was slow enough for a token to come back meanwhile, one each 12 s).
        var statuses: [Int] = []
        while statuses.count < 12, statuses.last != 429 {
            statuses.append(
                try await rawHTTP("DELETE", "\(base)api/notifications/installations/nope", headers: device).0)
        }
        #expect(
            statuses.last == 429 && statuses.count >= 5 && statuses.dropLast().allSatisfy { $0 == 404 }, "\(statuses)")
        #expect(try await rawHTTP("GET", "\(base)healthz").0 == 200)
        #expect(try await server.stop() == 0)
        #expect(!server.stdout.contains(deviceKey) && !server.stdout.contains(senderKey))
        #expect(try await emulator.stop() == 0)
    }

    /// SIGTERM while a pipeline run started over HTTP is sending: the server stops taking requests, the run finishes
    /// every row (paced at 10 a second, so it is mid-way when the signal comes), and the process exits 0.
    @Test func sigtermLetsARunStartedOverHTTPFinish() async throws {
        let (emulator, _, connection) = try await Self.startEmulator()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-sigterm-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try (["user,headline"] + (1...15).map { "u\($0),Edition \($0)" }).joined(separator: "\n").appending("\n")
            .write(toFile: directory + "/rows.csv", atomically: true, encoding: .utf8)
        try """
        version: 1
        hubs:
          h: { connection: "${env:NH_CONNECTION}", hub: myhub }
        parameters:
          edition: { pattern: "[a-z0-9-]{1,20}", required: true }
        steps:
          - send:
              hub: h
              for-each: rows.csv
              rate: "10"
              audience: "username:$(user)"
              properties: { message: "$(headline)", edition: "${param:edition}" }
        """.write(toFile: directory + "/digest.yaml", atomically: true, encoding: .utf8)
        try """
        version: 1
        hubs:
          users: { connection: "${env:NH_CONNECTION}", hub: myhub }
        service:
          hub: users
          api-keys:
            ops: { key: "${env:ADMIN_KEY}", scopes: [admin] }
          pipelines: { digest: digest.yaml }
        """.write(toFile: directory + "/service.yaml", atomically: true, encoding: .utf8)
        let adminKey = "admin-key-0123456789abcdef"
        let server = try PushlineProcess(
            ["serve", directory + "/service.yaml", "--port", "0"],
            environment: [
                "NH_CONNECTION": connection, "ADMIN_KEY": adminKey, "PUSHLINE_JOURNAL": directory + "/journal.sqlite",
            ])
        let started = try await server.waitForOutput(containing: "stop with Ctrl-C")
        let base = try #require(
            started.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        let (status, text) = try await rawHTTP(
            "POST", "\(base)v1/pipelines/digest/runs",
            headers: ["apikey": adminKey, "Content-Type": "application/json"],
            body: #"{"parameters":{"edition":"2026-11-23"}}"#)
        #expect(status == 202, "\(text)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await server.stop() == 0)
        #expect(server.stdout.contains("server stopped"))
        #expect(try await emulator.stop() == 0)
        // The run finished every row before the process ended: the journal says completed, 15 accepted.
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["id"] as? String)
        let runs = try PushlineProcess(
            ["runs", "show", id, "--format", "json"], environment: ["PUSHLINE_JOURNAL": directory + "/journal.sqlite"])
        #expect(try await runs.waitForExit() == 0)
        #expect(
            runs.stdout.contains(#""status":"completed""#) || runs.stdout.contains(#""status" : "completed""#),
            "\(runs.stdout)")
        #expect(runs.stdout.contains(#""accepted":15"#) || runs.stdout.contains(#""accepted" : 15"#), "\(runs.stdout)")
    }
}
