import CommandTestSupport
import Foundation
import HubEmulator
import HubWire
import PipelineCore
import PipelineTesting
import Testing

@testable import PushlineCLI

@Suite struct EmulatorCommandTests {
    @Test func decodesEveryConfigKey() throws {
        let diagnostics = DiagnosticCollector()
        let configuration = try #require(
            EmulatorConfigDecoder.load(
                CommandRunner.root + "/Tests/PushlineCLITests/Inputs/emulator.yaml", environment: [:],
                diagnostics: diagnostics))
        #expect(diagnostics.diagnostics.isEmpty)
        #expect(configuration.namespace == "contoso-nh")
        #expect(configuration.tier == .basic)
        #expect(configuration.clockOffset == -5400)
        #expect(configuration.hubs.map(\.name) == ["myhub"])
        #expect(
            configuration.hubs[0].policies.map(\.name) == [
                "DefaultFullSharedAccessSignature", "DefaultListenSharedAccessSignature",
            ])
        #expect(configuration.hubs[0].policies[1].rights == [.listen])
        #expect(
            configuration.faults == [
                FaultRule(effect: .status(429, retryAfter: 1), rate: 0.1),
                FaultRule(effect: .status(503, retryAfter: nil), rate: 0.02, operations: [.send]),
                FaultRule(effect: .dropConnection, rate: 0.01, operations: [.installation, .registration]),
            ])
        #expect(configuration.latency == LatencyRule(delay: .milliseconds(50), operations: [.send]))
        #expect(
            configuration.deadChannels == [
                DeadChannelRule(reason: .expired, selection: .handles(["AAAA", "BBBB"])),
                DeadChannelRule(reason: .invalid, selection: .share(.fcmv1, 0.05)),
            ])
        #expect(configuration.telemetryDelay == 0.5)
        #expect(
            EmulatorConfigDecoder.shortDuration("0.2s") == .milliseconds(200)
                && EmulatorConfigDecoder.shortDuration("60s") == .seconds(60))
        #expect(
            EmulatorConfigDecoder.shortDuration("61s") == nil && EmulatorConfigDecoder.shortDuration("-5ms") == nil
                && EmulatorConfigDecoder.shortDuration("5") == nil
                && EmulatorConfigDecoder.shortDuration("1e3ms") == nil)
    }

    @Test func badConfigIsReportedWithLocationsAndNothingStarts() async throws {
        let output = await CommandRunner.run([
            "emulator", "--port", "0", "--config", "Tests/PushlineCLITests/Inputs/emulator-bad.yaml",
        ])
        #expect(output.status == 2)
        #expect(output.out == "")
        try CommandRunner.expectGolden(output.err, "emulator-bad.err.txt")
    }

    @Test func clockOffsetFlagIsCheckedAndShownInTheBanner() async throws {
        let bad = await CommandRunner.run(["emulator", "--port", "0", "--clock-offset", "soon"])
        #expect(bad.status == 2)
        #expect(bad.err.contains("--clock-offset must be a duration within 7 days either way, such as 2h or -90s"))
        #expect(EmulatorConfigDecoder.signedDuration("+2h") == 7200)
        #expect(EmulatorConfigDecoder.signedDuration("-1h30m") == -5400)
        #expect(EmulatorConfigDecoder.signedDuration("0") == 0)
        #expect(EmulatorConfigDecoder.signedDuration("--2h") == nil)

        let behind = EmulatorConfiguration(
            namespace: "local", hubs: [.init(name: "h", policies: [.init(name: "F", key: "k", rights: [.manage])])],
            clockOffset: -5400)
        let banner = EmulatorCommand.banner(
            try await Emulator(configuration: behind), host: "127.0.0.1", port: 1, state: nil)
        #expect(banner.contains("clock: 1h30m behind this machine's (--clock-offset)\n"))
    }

    @Test func bannerNamesEveryHubPolicyAndTheSideChannel() async throws {
        let configuration = EmulatorConfiguration(
            namespace: "local",
            hubs: [
                .init(
                    name: "myhub",
                    policies: [
                        .init(name: "Full", key: "k1", rights: [.manage]),
                        .init(name: "Listen", key: "k2", rights: [.listen]),
                    ])
            ])
        let emulator = try await Emulator(configuration: configuration)
        #expect(
            EmulatorCommand.banner(emulator, host: "127.0.0.1", port: 8080, state: "s.json") == """
                Pushline NH emulator listening on http://127.0.0.1:8080/ (namespace 'local', standard tier)
                  hub myhub, policy Full:
                    Endpoint=http://127.0.0.1:8080/;SharedAccessKeyName=Full;SharedAccessKey=k1
                  hub myhub, policy Listen:
                    Endpoint=http://127.0.0.1:8080/;SharedAccessKeyName=Listen;SharedAccessKey=k2
                deliveries: http://127.0.0.1:8080/_emulator/deliveries
                state file: s.json
                stop with Ctrl-C (in-flight requests finish, state is saved)

                """)
    }
}
