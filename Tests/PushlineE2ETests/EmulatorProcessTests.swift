import CommandTestSupport
import Foundation
import HubWire
import Testing

/// The real `pushline emulator` process: banner, SIGTERM shutdown, state saved and restored.
@Suite(.serialized) struct EmulatorProcessTests {
    let installation =
        #"{"installationId":"seed-1","platform":"apns","pushChannel":"62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA","tags":["12345"],"templates":{"genericTemplate":{"body":"{\"aps\":{\"alert\":\"$(message)\"}}"}}}"#

    /// Starts an emulator on a free port; returns the process, base URL and Full connection string.
    func start(state: String) async throws -> (PushlineProcess, String, ConnectionString) {
        let emulator = try PushlineProcess(["emulator", "--port", "0", "--state", state])
        let banner = try await emulator.waitForOutput(containing: "stop with Ctrl-C")
        let base = try #require(
            banner.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        let line = try #require(
            banner.split(separator: "\n").first { $0.contains("SharedAccessKeyName=DefaultFullSharedAccessSignature") })
        return (emulator, base, try ConnectionString(parsing: line.trimmingCharacters(in: .whitespaces)))
    }

    func authorization(_ connection: ConnectionString) -> String {
        let resource = HubAddress.sasResource(connection: connection, hub: "myhub", endpointOverride: nil)
        return connection.signer.token(forResource: resource, expiry: Int64(Date().timeIntervalSince1970) + 600)
            .headerValue
    }

    @Test func sigtermSavesStateAndARestartRestoresIt() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-state-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: state) }

        let (first, base, connection) = try await start(state: state)
        let url = "\(base)myhub/installations/seed-1?api-version=2015-01"
        let headers = ["Authorization": authorization(connection), "Content-Type": "application/json"]
        #expect(try await http("GET", "\(base)_emulator/health").0 == 200)
        #expect(try await http("GET", url, headers: headers).0 == 404)
        #expect(try await http("PUT", url, headers: headers, body: installation).0 == 200)
        #expect(try await first.stop() == 0)
        #expect(first.stdout.hasSuffix("emulator stopped; state saved to \(state)\n"))
        #expect(try String(contentsOfFile: state, encoding: .utf8).contains("seed-1"))

        // The keys are generated per start, so the restarted emulator needs a token of its own.
        let (second, base2, connection2) = try await start(state: state)
        let (status, body) = try await http(
            "GET", "\(base2)myhub/installations/seed-1?api-version=2015-01",
            headers: ["Authorization": authorization(connection2)])
        #expect(status == 200)
        #expect(body.contains(#""tags":["12345"]"#))
        #expect(try await second.stop(signal: SIGINT) == 0)
    }

    @Test func seedTutorialSendIsDelivered() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-state-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let (emulator, base, connection) = try await start(state: state)
        let auth = authorization(connection)
        #expect(
            try await http(
                "PUT", "\(base)myhub/installations/seed-1?api-version=2015-01",
                headers: ["Authorization": auth, "Content-Type": "application/json"], body: installation
            ).0 == 200)
        let (status, _) = try await http(
            "POST", "\(base)myhub/messages?api-version=2015-01",
            headers: [
                "Authorization": auth, "Content-Type": "application/json;charset=utf-8",
                "ServiceBusNotification-Format": "template", "ServiceBusNotification-Tags": "12345",
            ], body: #"{"message":"Hello from Postman!"}"#)
        #expect(status == 201)
        let deliveries = try await http("GET", "\(base)_emulator/deliveries").1
        #expect(deliveries.contains(#""payload":"{\"aps\":{\"alert\":\"Hello from Postman!\"}}""#))
        #expect(try await emulator.stop() == 0)
    }
}
