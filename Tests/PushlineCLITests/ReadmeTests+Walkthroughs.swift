import CommandTestSupport
import Foundation
import Testing

@testable import PushlineCLI

/// The guides' walkthroughs, each run in one shell as written against `pushline demo --keep-running`, with the
/// `export` lines the demo prints pasted first, as a reader would.
extension ReadmeTests {
    @Test("the five-minute walkthrough runs as written against `pushline demo --keep-running`")
    func walkthrough() async throws {
        let output = try await Self.walk(Self.blocks(marked: "walkthrough"))
        // 1. The token is accepted: an unknown installation is 404, not 401.
        #expect(output.contains("\n404\n") || output.hasPrefix("404\n"), "\(output)")
        // 2. The installation is stored and read back with the template's name among its tags.
        #expect(output.contains("installation 'seed-1' saved on hub 'myhub'"))
        #expect(output.contains(#""installationId":"seed-1""#) && output.contains("genericTemplate"))
        // 3. The test send reaches the device, and the side channel shows the payload.
        #expect(output.contains("test send: 1 succeeded, 0 failed"))
        #expect(output.contains(#""payload":"{\"aps\":{\"alert\":\"Hello from Postman!\"}}""#))
    }

    @Test("the notify-users walkthrough runs as written: only bob's phone receives alice's notification")
    func serveWalkthrough() async throws {
        let output = try await Self.walk(Array(Self.blocks(marked: "serve-walkthrough").prefix(1)))
        let lunch = try Self.deliveries(in: output).filter {
            ($0["payload"] as? String)?.contains("From alice: Lunch at noon?") == true
        }
        #expect(lunch.count == 1, "\(output)")
        #expect(lunch.first?["pushChannel"] as? String == String(repeating: "B0", count: 32))
    }

    @Test(
        "the nightly digest walkthrough runs as written: a bad row is reported, the fixed file sends only that row, each user gets one digest"
    )
    func batchWalkthrough() async throws {
        let blocks = Self.blocks(marked: "batch-walkthrough")
        #expect(blocks.count == 3 && blocks.allSatisfy { $0.file == "docs/batch-runs.md" })
        let output = try await Self.walk(blocks)
        // The first digest: the bad row named, the other two sent, exit 3.
        #expect(
            output.contains("tonight.csv:4") && output.contains("audience '$UserId:{}' is not a valid tag expression"),
            "\(output)")
        #expect(!output.contains("warning"), "validate, given the rows, has nothing to warn of: \(output)")
        #expect(output.contains("'tonight.csv' = 2 accepted + 1 bad"), "\(output)")
        #expect(output.contains("exit code 3"), "\(output)")
        // The fixed file: one sent, two already sent.
        #expect(output.contains("'tonight.csv' = 1 accepted + 2 already sent"), "\(output)")
        // The same command once more: the run already completed, nothing is sent.
        #expect(output.contains("already completed at"), "\(output)")
        // Each phone received exactly one digest, with its own headline.
        let deliveries = try Self.deliveries(in: output)
        for (token, headline) in [
            ("fcm-token-ada", "3 new replies"), ("fcm-token-bo", "Your order shipped"),
            ("fcm-token-cy", "Weekly summary"),
        ] {
            let received = deliveries.filter { $0["pushChannel"] as? String == token }
            #expect(received.count == 1, "\(token): \(received)")
            #expect((received.first?["payload"] as? String)?.contains(headline) == true, "\(token): \(received)")
        }
    }

    /// Runs `blocks` in one shell in a sandbox, after the `export` lines the getting-started guide's emulator command
    /// printed (what a reader pastes into a second terminal), and stops the emulator; returns what the shell printed.
    static func walk(_ blocks: [Block]) async throws -> String {
        #expect(!blocks.isEmpty)
        let directory = try sandbox()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let serverCommand = try #require(self.blocks(marked: "walkthrough-server").first.flatMap { commands($0).first })
        let server = try PushlineProcess(arguments(serverCommand), directory: directory)
        let banner = try await server.waitForOutput(containing: "Stop the emulator with Ctrl-C.", timeout: 60)
        let exports = banner.split(separator: "\n").filter { $0.hasPrefix("  export ") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(exports.count == 3)
        #expect(exports.contains { $0.hasPrefix("export NH_EMULATOR=http://127.0.0.1:") })
        let (status, output) = try shell((exports + blocks.flatMap(\.lines)).joined(separator: "\n"), in: directory)
        #expect(status == 0, "\(output)")
        #expect(try await server.stop(signal: SIGINT) == 0)
        return output
    }

    /// The emulator's deliveries, from the last line of `output` that is a JSON array (`curl …/_emulator/deliveries`).
    static func deliveries(in output: String) throws -> [[String: Any]] {
        let line = try #require(
            output.split(separator: "\n").last { $0.hasPrefix("[") }, "no deliveries printed: \(output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
    }
}
