import CommandTestSupport
import Foundation
import HubWire
import Testing

/// `pushline run` (the real executable) against `pushline emulator` (the real executable), over loopback.
@Suite(.serialized) struct PipelineRunProcessTests {
    let seed = CommandRunner.root + "/pipelines/seed-tutorial.yaml"

    /// A running emulator; returns its base URL and connection strings by policy.
    func emulator(_ extra: [String] = []) async throws -> (PushlineProcess, String, [String: String]) {
        let emulator = try await EmulatorProcess.start(extra)
        var strings: [String: String] = [:]
        for text in emulator.connections { strings[try ConnectionString(parsing: text).keyName] = text }
        return (emulator.process, emulator.base, strings)
    }

    func run(_ arguments: [String], connection: String, environment: [String: String] = [:]) async throws -> (
        Int32, String
    ) {
        let process = try PushlineProcess(
            arguments, environment: environment.merging(["NH_CONNECTION": connection, "NH_HUB": "myhub"]) { a, _ in a })
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
        #expect(
            try await http(
                "GET", "\(base)myhub/installations/seed-1?api-version=2015-01",
                headers: ["Authorization": "SharedAccessSignature sr=x&sig=y&se=1&skn=z"]
            ).0 == 401)

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
        let (status, output) = try await run(
            ["run", CommandRunner.root + "/pipelines/notify-user.yaml"], connection: full)
        #expect(status == 0, "\(output)")
        let deliveries = try await http("GET", "\(base)_emulator/deliveries").1
        #expect(
            deliveries.contains(
                #""payload":"{\"aps\":{\"alert\":\"Hello from the backend, Alice!\",\"sound\":\"default\"}}""#))
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

    /// The emulator's clock runs 2 h ahead, so the seed's 20-minute token has expired by the hub's clock:
    /// the run fails before sending, says the token expired and by how much the clocks disagree.
    @Test func expiredTokenNamesTheClockSkew() async throws {
        let (emulator, base, strings) = try await emulator(["--clock-offset", "2h"])
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let (status, output) = try await run(["run", seed], connection: full)
        #expect(status == 1, "\(output)")
        #expect(output.contains("the token expired; the server's clock is"), "\(output)")
        #expect(output.contains("(about 2h) ahead of this machine's"), "\(output)")
        #expect(output.contains("turn on network time sync"), "\(output)")
        #expect(!output.contains(String(full.split(separator: "=").last ?? "")))
        #expect(try await http("GET", "\(base)_emulator/deliveries").1 == "[]")
        #expect(try await emulator.stop() == 0)
    }

    /// `direct-file:` streams the tokens file (comments and blank lines skipped) into one direct batch.
    @Test func directFileDeliversToEveryTokenInTheFile() async throws {
        let (emulator, base, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let (status, output) = try await run(
            ["run", CommandRunner.root + "/Tests/PushlineCLITests/Inputs/e2e/direct-file.yaml"], connection: full)
        #expect(status == 0, "\(output)")
        #expect(output.contains("sent an apple notification to the devices in"), "\(output)")
        let deliveries = try await http("GET", "\(base)_emulator/deliveries").1
        for digit in ["1", "2", "3"] {
            #expect(deliveries.contains(String(repeating: digit, count: 64)), "\(deliveries)")
        }
        #expect(
            deliveries.components(separatedBy: #""payload":"{\"aps\":{\"alert\":\"Maintenance at noon\"}}""#).count == 4
        )
        #expect(try await emulator.stop() == 0)
    }

    /// A scheduled send reports its id; a second pipeline cancels it by that id; cancelling again fails clearly.
    @Test func aScheduledSendIsCancelledByTheIdItReported() async throws {
        let (emulator, _, strings) = try await emulator()
        let full = try #require(strings["DefaultFullSharedAccessSignature"])
        let inputs = CommandRunner.root + "/Tests/PushlineCLITests/Inputs/e2e/"
        let (status, output) = try await run(
            ["run", inputs + "schedule.yaml", "--format", "json", "--quiet"], connection: full)
        #expect(status == 0, "\(output)")
        // Standard error's lines (which run, which journal) come with the report here: the report is the rest.
        let json = output.split(separator: "\n").filter { !$0.hasPrefix("pushline: ") }.joined(separator: "\n")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(output)")
        let steps = try #require(report["steps"] as? [[String: Any]])
        let data = try #require(steps.first?["data"] as? [String: Any])
        let id = try #require((data["notificationIds"] as? [String])?.first, "\(output)")

        let (cancelStatus, cancelOutput) = try await run(
            ["run", inputs + "cancel.yaml"], connection: full, environment: ["NOTIFICATION_ID": id])
        #expect(cancelStatus == 0, "\(cancelOutput)")
        #expect(cancelOutput.contains("cancelled scheduled notification '\(id)' on hub 'backend'"))
        let (againStatus, againOutput) = try await run(
            ["run", inputs + "cancel.yaml"], connection: full, environment: ["NOTIFICATION_ID": id])
        #expect(againStatus == 1)
        #expect(
            againOutput.contains("has no scheduled notification '\(id)': it was sent or cancelled already"),
            "\(againOutput)")
        #expect(try await emulator.stop() == 0)
    }
}
