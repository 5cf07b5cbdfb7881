import Foundation
import HubWire
import Testing

/// `pushline run` (the real executable) against `pushline emulator` (the real executable), over loopback.
@Suite(.serialized) struct PipelineRunProcessTests {
    let seed = CommandRunner.root + "/pipelines/seed-tutorial.yaml"

    /// A running emulator; returns its base URL and connection strings by policy.
    func emulator() async throws -> (PushlineProcess, String, [String: String]) {
        let process = try PushlineProcess(["emulator", "--port", "0"])
        let banner = try await process.waitForOutput(containing: "stop with Ctrl-C")
        let base = try #require(banner.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        var strings: [String: String] = [:]
        for line in banner.split(separator: "\n") where line.contains("Endpoint=") {
            let text = line.trimmingCharacters(in: .whitespaces)
            strings[try ConnectionString(parsing: text).keyName] = text
        }
        return (process, base, strings)
    }

    func run(_ arguments: [String], connection: String) async throws -> (Int32, String) {
        let process = try PushlineProcess(arguments, environment: ["NH_CONNECTION": connection, "NH_HUB": "myhub"])
        let status = try await process.waitForExit()
        return (status, process.stdout)
    }

    @Test func seedTutorialDeliversAndDryRunSendsNothing() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let key = try #require(full.split(separator: "=").last.map(String.init))

        let (dryStatus, dryOutput) = try await run(["run", seed, "--dry-run"], connection: full)
        #expect(dryStatus == 0)
        #expect(dryOutput.contains("would send a template notification to audience 'seed-device'"))
        #expect(!dryOutput.contains(key))
        #expect(try await http("GET", "\(base)_emulator/deliveries").1 == "[]")
        #expect(try await http("GET", "\(base)myhub/installations/seed-1?api-version=2015-01",
                               headers: ["Authorization": "SharedAccessSignature sr=x&sig=y&se=1&skn=z"]).0 == 401)

        let (status, output) = try await run(["run", seed], connection: full)
        #expect(status == 0, "\(output)")
        #expect(!output.contains(key))
        let deliveries = try await http("GET", "\(base)_emulator/deliveries").1
        #expect(deliveries.contains(#""payload":"{\"aps\":{\"alert\":\"Hello from Postman!\"}}""#))
        #expect(deliveries.components(separatedBy: "\"payload\"").count == 2)  // exactly one delivery
        #expect(try await emulator.stop() == 0)
    }

    @Test func notifyUserRegistersAndSendsANativeAlert() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let (status, output) = try await run(["run", CommandRunner.root + "/pipelines/notify-user.yaml"], connection: full)
        #expect(status == 0, "\(output)")
        let deliveries = try await http("GET", "\(base)_emulator/deliveries").1
        #expect(deliveries.contains(#""payload":"{\"aps\":{\"alert\":\"Hello from the backend, Alice!\",\"sound\":\"default\"}}""#))
        #expect(deliveries.contains(#""headers":{"apns-push-type":"alert"}"#))
        #expect(deliveries.contains(#""installationId":null"#))
        #expect(try await emulator.stop() == 0)
    }

    @Test func listenOnlyAndWrongKeysFailClearly() async throws {
        let (emulator, _, strings) = try await emulator()
        let listen = try #require(strings["DefaultListenSharedAccessSignature"])
        let (status, output) = try await run(["run", seed], connection: listen)
        #expect(status == 1)
        #expect(output.contains("the key lacks the Send right"))

        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let wrong = full.replacingOccurrences(of: "SharedAccessKey=", with: "SharedAccessKey=x")
        let (wrongStatus, wrongOutput) = try await run(["run", seed], connection: wrong)
        #expect(wrongStatus == 1)
        #expect(wrongOutput.lowercased().contains("signature"))
        #expect(!wrongOutput.contains(String(wrong.split(separator: "=").last ?? "")))
        #expect(try await emulator.stop() == 0)
    }
}
