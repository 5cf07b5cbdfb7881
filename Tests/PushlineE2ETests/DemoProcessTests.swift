import CommandTestSupport
import Foundation
import HubWire
import Testing

/// `pushline demo` (the real executable): the seed tutorial against an emulator in the same process.
@Suite(.serialized) struct DemoProcessTests {
    @Test("the demo registers, sends and shows what the device received and every request, redacted; exit 0")
    func demo() async throws {
        let process = try PushlineProcess(["demo"], directory: CommandRunner.root)
        let status = try await process.waitForExit(timeout: 60)
        let output = process.stdout
        #expect(status == 0, "\(output)")
        #expect(
            output.contains(
                "Pushline demo: pipelines/seed-tutorial.yaml against a local NH emulator (hub 'myhub' at http://127.0.0.1:"
            ))
        // The run's own report, as `pushline run` prints it.
        #expect(output.contains("[4/4] send"))
        #expect(output.contains("result: succeeded (steps: 4 succeeded)"))
        #expect(
            output.contains(
                #"installation seed-1 (apns, template genericTemplate): {"aps":{"alert":"Hello from Postman!"}}"#))
        // The requests as sent: the installation PUT and the template send, each with its answer.
        #expect(output.contains("PUT http://127.0.0.1:"))
        #expect(output.contains("/myhub/installations/seed-1?api-version="))
        #expect(output.contains("ServiceBusNotification-Tags: 12345"))
        #expect(output.contains(#"{"message":"Hello from Postman!"}"#))
        #expect(output.contains("→ 200 (1 attempt)"))
        #expect(output.contains("→ 201 (1 attempt) Location: http://127.0.0.1:"))
        // Secrets: every signature is redacted and no key is printed without --keep-running.
        #expect(output.contains("sig=<redacted>"))
        #expect(output.components(separatedBy: "sig=").count == output.components(separatedBy: "sig=<redacted>").count)
        #expect(!output.contains("SharedAccessKey="))
        // Started from the build directory, as `swift run` does: the suggestions say `swift run pushline`, and the
        // emulator on its own on its usual port, not a number that was free a moment ago.
        #expect(output.contains("Next:\n  swift run pushline demo --keep-running"))
        #expect(
            output.contains("swift run pushline emulator      ")
                && output.contains("(port 8080; --port 0 picks a free one)"), "\(output)")
        #expect(output.hasSuffix("emulator stopped\n"))
    }

    @Test("a --pipeline that does not exist is exit 2, named")
    func missingPipeline() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-demo-test-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let process = try PushlineProcess(["demo", "--pipeline", "nope.yaml"], directory: empty)
        #expect(try await process.waitForExit() == 2)
        #expect(process.stdout == "error: cannot find the pipeline 'nope.yaml'; check the path\n")
    }

    @Test("--keep-running leaves the emulator up with a working connection string until SIGINT")
    func keepRunning() async throws {
        let process = try PushlineProcess(["demo", "--keep-running"], directory: CommandRunner.root)
        let output = try await process.waitForOutput(containing: "Stop the emulator with Ctrl-C.", timeout: 60)
        let exports = Dictionary(
            uniqueKeysWithValues: output.split(separator: "\n").compactMap { line -> (String, String)? in
                guard let range = line.range(of: "export ") else { return nil }
                let assignment = line[range.upperBound...]
                guard let equals = assignment.firstIndex(of: "=") else { return nil }
                return (
                    String(assignment[..<equals]),
                    String(assignment[assignment.index(after: equals)...]).trimmingCharacters(in: ["'"])
                )
            })
        let connection = try ConnectionString(parsing: try #require(exports["NH_CONNECTION"]))
        #expect(exports["NH_HUB"] == "myhub")
        let base = try #require(exports["NH_EMULATOR"])
        #expect(connection.endpoint.hasPrefix(base))
        // The installation the demo registered is there, readable with the printed key.
        let token = connection.signer.token(
            forResource: "\(base)/myhub", expiry: Int64(Date().timeIntervalSince1970) + 600)
        let (status, body) = try await http(
            "GET", "\(base)/myhub/installations/seed-1?api-version=2015-01",
            headers: ["Authorization": token.headerValue])
        #expect(status == 200)
        #expect(body.contains(#""tags":["12345"]"#))
        // The emulator's deliveries are the walkthrough's alone: the demo's own were cleared, and said so.
        #expect(output.contains("The emulator keeps running (the demo's deliveries cleared)"))
        #expect(try await http("GET", "\(base)/_emulator/deliveries").1 == "[]")
        // Nothing is suggested that is already running: no second demo, no second emulator.
        let next = (output.components(separatedBy: "Next:").last ?? "").components(separatedBy: "\n\n").first ?? ""
        #expect(!next.contains("demo --keep-running") && !next.contains(" emulator"), "\(next)")
        #expect(try await process.stop(signal: SIGINT) == 0)
        #expect(process.stdout.hasSuffix("emulator stopped\n"))
    }
}
