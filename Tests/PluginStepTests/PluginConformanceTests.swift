import Foundation
import PipelineCore
import PluginProtocol
@testable import PluginStep
import Testing

@Suite("pushline plugin check: each part of the protocol, passed or failed with what to fix")
struct PluginConformanceTests {
    func findings(_ mode: String, options: PluginValue = .object(["segment": .string("vip")]), runs: Bool = true) async throws -> [PluginConformance.Finding] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Plugins/scripted.py").path
        let python = try #require(pythonExecutable)
        var conformance = PluginConformance(command: [python, script, mode], directory: NSTemporaryDirectory(), environment: [:], options: options,
                                            timeout: 120, runs: runs)
        // The suite starts with every other suite on two cores: a Python start and exit can take tens of seconds then.
        conformance.host.handshakeTimeout = .seconds(120)
        conformance.host.exitGrace = .seconds(60)
        return await conformance.findings()
    }

    @Test("a plugin that keeps the protocol passes every part; its rows and outputs are shown")
    func conformingPluginPasses() async throws {
        let found = try await findings("good")
        #expect(found.map(\.part) == ["describe", "check", "unknown method", "dry run", "run"])
        #expect(found.allSatisfy { $0.passed }, "\(found)")
        #expect(found.last?.details.first == "rows: 3 (columns n, name, userId, vip)")
        #expect(found.last?.details.contains("output count: 3") == true)
    }

    @Test("each violation fails its part with what to fix", arguments: [
        ("stdout-logs", "a line is not JSON: 'fetching page 1 of the segment'"),
        ("no-id", "has no integer \"id\""),
        ("overlong", "is longer than 1024 KiB"),
        ("exit-mismatch", "answered, then exited with code 1"),
        ("crash", "ended without answering the run request"),
    ])
    func violationsFail(mode: String, expected: String) async throws {
        let found = try await findings(mode, options: .object(["segment": .string("vip"), "limit": .integer(4)]))
        let run = try #require(found.first { $0.part == "run" })
        #expect(!run.passed && run.message.contains(expected), "\(run)")
        #expect(!run.details.isEmpty)
    }

    @Test("a sample without a required option is not run, and says which to give")
    func missingRequiredOption() async throws {
        let found = try await findings("good", options: .object([:]))
        #expect(found.last?.message == "not run: the sample options lack the required 'segment'")
    }

    @Test("the plugin's own check refusing the sample fails the check part with its problems")
    func checkRefuses() async throws {
        let found = try await findings("good", options: .object(["segment": .string("nobody")]), runs: false)
        let check = try #require(found.first { $0.part == "check" })
        #expect(!check.passed && check.details == ["segment: no segment is called 'nobody'"])
    }
}
