import Foundation
import PipelineCore
import PluginProtocol
import Testing

@testable import PluginStep

@Suite("pushline plugin check: each part of the protocol, passed, failed with what to fix, or skipped with why")
struct PluginConformanceTests {
    typealias Finding = PluginConformance.Finding

    /// Options as a pipeline file holds them under the step (`segment: vip`), every value written as text.
    static func options(_ pairs: KeyValuePairs<String, String>) -> ConfigNode {
        let at = SourceLocation(file: "--options", line: 1, column: 1)
        return ConfigNode(
            .mapping(
                pairs.map {
                    ConfigEntry(
                        key: $0.key, keyLocation: at,
                        value: ConfigNode(.scalar(ConfigScalar(text: $0.value, isPlain: true)), at: at))
                }),
            at: at)
    }

    func findings(
        _ mode: String, _ samples: [PluginConformance.Sample], runs: PluginConformance.Runs = .safe,
        timeout: Int64 = 120,
        environment: [String: String] = [:]
    ) async throws -> [Finding] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Plugins/scripted.py"
        ).path
        let python = try #require(pythonExecutable)
        var conformance = PluginConformance(
            command: [python, script, mode], name: "crm", directory: NSTemporaryDirectory(),
            environment: environment, timeout: timeout, runs: runs)
        // The suite starts with every other suite on two cores: a Python start and exit can take tens of seconds then.
        conformance.host.handshakeTimeout = .seconds(120)
        conformance.host.exitGrace = .seconds(60)
        let (described, description) = await conformance.describe()
        guard let description else { return [described] }
        return [described] + (await conformance.findings(after: description, samples: samples))
    }

    func findings(
        _ mode: String, options: KeyValuePairs<String, String> = ["segment": "vip"],
        runs: PluginConformance.Runs = .safe,
        timeout: Int64 = 120, environment: [String: String] = [:]
    ) async throws -> [Finding] {
        try await findings(
            mode, [.init(label: "--options", options: Self.options(options))], runs: runs, timeout: timeout,
            environment: environment)
    }

    @Test("a plugin that keeps the protocol passes every part; its typed options, rows and outputs are shown")
    func conformingPluginPasses() async throws {
        let found = try await findings("good", options: ["segment": "vip", "limit": "3"])
        #expect(
            found.map(\.part) == [
                "describe", "options (--options)", "check (--options)", "unknown method", "dry run (--options)",
                "run (--options)",
            ])
        #expect(found.allSatisfy { $0.outcome == .passed }, "\(found)")
        // "3" is written as text and reaches the plugin as the integer its type says, as in a pipeline.
        #expect(found[1].details == [#"segment: "vip""#, "limit: 3"])
        #expect(found.last?.details.first == "rows: 3 (columns n, name, userId, vip)")
        #expect(found.last?.details.contains("output count: 3") == true)
    }

    @Test(
        "each violation fails its part with what to fix",
        arguments: [
            ("stdout-logs", "a line is not JSON: 'fetching page 1 of the segment'"),
            ("no-id", "has no integer \"id\""),
            ("overlong", "is longer than 1024 KiB"),
            ("exit-mismatch", "answered, then exited with code 1"),
            ("crash", "ended without answering the run request"),
        ])
    func violationsFail(mode: String, expected: String) async throws {
        let found = try await findings(mode, options: ["segment": "vip", "limit": "4"], runs: .none)
        let dryRun = try #require(found.first { $0.part == "dry run (--options)" })
        #expect(dryRun.outcome == .failed && dryRun.message.contains(expected), "\(dryRun)")
        #expect(!dryRun.details.isEmpty)
        #expect(found.last?.outcome == .skipped && found.last?.message == "--no-run")
    }

    @Test("the host reads the options as a pipeline does: every unknown key and wrong type is listed, and nothing runs")
    func hostRules() async throws {
        let found = try await findings("good", options: ["limit": "many", "segmnt": "vip"])
        let options = try #require(found.first { $0.part == "options (--options)" })
        #expect(options.outcome == .failed)
        // The misspelled required key is one problem, at the misspelling, not a second "missing" one.
        #expect(options.details.count == 2, "\(options.details)")
        #expect(
            options.details.contains { $0.hasPrefix("unknown key 'segmnt'; did you mean 'segment'?") },
            "\(options.details)")
        #expect(
            options.details.contains { $0.hasPrefix("'limit' must be a whole number, found 'many'") },
            "\(options.details)")
        let skipped = found.filter { $0.outcome == .skipped }.map(\.part)
        #expect(skipped == ["dry run", "run"])
        #expect(found.last?.message.contains("--options: refused") == true, "\(found.last!)")
    }

    @Test("the plugin's own check refusing a sample fails the check part with its problems, and that sample is not run")
    func checkRefuses() async throws {
        let found = try await findings("good", options: ["segment": "nobody"])
        let check = try #require(found.first { $0.part == "check (--options)" })
        #expect(check.outcome == .failed && check.details == ["segment: no segment is called 'nobody'"])
        #expect(found.last?.outcome == .skipped)
    }

    @Test("with several samples, each is read and checked, and the first both accept is run")
    func severalSamples() async throws {
        let found = try await findings(
            "good",
            [
                .init(label: "example 1", options: Self.options(["segment": "nobody"])),
                .init(label: "example 2", options: Self.options(["segment": "vip", "limit": "2"])),
            ])
        #expect(found.first { $0.part == "check (example 1)" }?.outcome == .failed)
        let run = try #require(found.last)
        #expect(run.part == "run (example 2)" && run.outcome == .passed, "\(run)")
        #expect(run.details.first == "rows: 2 (columns n, name, userId, vip)")
    }

    @Test("a sample that refers to what only a pipeline knows is checked but not run")
    func referencesAreNotRun() async throws {
        var scalar = ConfigScalar(text: "${env:SEGMENT}", isPlain: true)
        scalar.isUnresolved = true
        let at = SourceLocation(file: "example 1", line: 1, column: 1)
        let node = ConfigNode(
            .mapping([ConfigEntry(key: "segment", keyLocation: at, value: ConfigNode(.scalar(scalar), at: at))]), at: at
        )
        let found = try await findings("good", [.init(label: "example 1", options: node)])
        #expect(
            found.first { $0.part == "options (example 1)" }?.details == [
                "segment: ${env:SEGMENT} (a reference: its value is known in a pipeline)"
            ])
        #expect(found.first { $0.part == "check (example 1)" }?.outcome == .passed)
        #expect(
            found.last?.outcome == .skipped && found.last?.message.contains("${env:SEGMENT} has no value here") == true,
            "\(found.last!)")
    }

    @Test("no samples: a plugin that requires an option is not run, and is told how to give one")
    func noSamples() async throws {
        let found = try await findings("good", [])
        #expect(found.last?.outcome == .skipped)
        #expect(found.last?.message == "no sample options: give --options '{…}', or add \"examples\" to describe")
        #expect(!found.contains { $0.outcome == .failed }, "\(found)")
    }

    @Test(
        "a plugin with external effects runs only when asked to (--run); a declared output its run leaves unset fails the run"
    )
    func externalEffects() async throws {
        let marker = NSTemporaryDirectory() + "plugin-check-marker-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let safe = try await findings("external", runs: .safe, environment: ["MARKER": marker])
        #expect(safe.suffix(2).map(\.outcome) == [.skipped, .skipped])
        #expect(safe.last?.message == "it has external effects and would act for real: give --run to run it")
        #expect(!FileManager.default.fileExists(atPath: marker))

        let run = try await findings("external", runs: .all, environment: ["MARKER": marker])
        #expect(FileManager.default.fileExists(atPath: marker))
        let last = try #require(run.last)
        #expect(last.part == "run (--options)" && last.outcome == .failed, "\(last)")
        #expect(
            last.details.first
                == "declared output 'note' was not set: set it in the result's \"outputs\", or stop declaring it",
            "\(last.details)")
    }

    @Test(
        "a part that hangs is stopped at its limit, and the parts after it are skipped instead of each waiting it out")
    func hangSkipsTheRest() async throws {
        let found = try await findings("hang", timeout: 1)
        let dryRun = try #require(found.first { $0.part == "dry run (--options)" })
        #expect(dryRun.outcome == .failed && dryRun.message.contains("did not finish within 1 s"), "\(dryRun)")
        #expect(
            found.last?.outcome == .skipped
                && found.last?.message == "an earlier part did not answer in time (dry run)", "\(found.last!)")
    }
}
