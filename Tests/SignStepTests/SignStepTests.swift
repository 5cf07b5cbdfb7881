import Foundation
import HubWire
import PipelineCore
import PushlineLogging
import TestSupport
import Testing

@testable import SignStep

private let connection = try! ConnectionString(
    parsing:
        "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY="
)
private let at = SourceLocation(file: "p.yaml", line: 1, column: 1)
private let hub = HubDeclaration(
    name: "tutorial", location: at, connection: connection, hubName: "myhub", endpoint: nil)

private func context(now: TimeInterval, dryRun: Bool = true) -> StepContext {
    .forTesting(
        document: PipelineDocument(file: "p.yaml", directory: ".", hubs: [hub]), dryRun: dryRun,
        clock: .fixed(Date(timeIntervalSince1970: now)))
}

private func build(_ pairs: [(String, String)]) -> (SignStep?, [Diagnostic]) {
    let collector = DiagnosticCollector()
    let node = ConfigNode(
        .mapping(
            pairs.enumerated().map { offset, pair in
                ConfigEntry(
                    key: pair.0, keyLocation: SourceLocation(file: "p.yaml", line: offset + 1, column: 3),
                    value: ConfigNode(
                        .scalar(ConfigScalar(text: pair.1)),
                        at: SourceLocation(file: "p.yaml", line: offset + 1, column: 10)))
            }), at: at)
    let reader = OptionReader(
        node, specs: SignStep.options, step: SignStep.id, what: "sign options", diagnostics: collector)
    let document = PipelineDocument(file: "p.yaml", directory: ".", hubs: [hub])
    return (
        SignStep.build(reader, in: BuildContext(document: document, loadDataFile: { _, _, _, _ in nil })),
        collector.diagnostics
    )
}

@Suite struct SignStepTests {
    @Test func buildsWithDefaultAndExplicitLifetime() {
        #expect(build([("hub", "tutorial")]).0?.lifetime == 3600)
        #expect(build([("hub", "tutorial"), ("lifetime", "20m")]).0?.lifetime == 1200)
    }

    @Test func rejectsUnknownHubAndTooShortLifetime() {
        let (step, diagnostics) = build([("hub", "tutorail"), ("lifetime", "5s")])
        #expect(step == nil)
        #expect(
            diagnostics.map(\.message) == [
                "unknown hub 'tutorail'; did you mean 'tutorial'?",
                "'lifetime' must be between 1m and 365d, found '5s'",
            ])
    }

    @Test func signsTheSeedTutorialTokenAndLeavesTheProvider() async throws {
        // now + 1h = 1700000000, the fixtures' expiry: the token must be the seed-tutorial vector.
        let context = context(now: 1_699_996_400)
        let result = try await SignStep(hub: hub, lifetime: 3600).run(in: context)
        let provider = try #require(context.state.tokenProvider(forHub: "tutorial"))
        #expect(
            provider.token().headerValue
                == "SharedAccessSignature sr=https%3a%2f%2fcontoso-nh.servicebus.windows.net%2fmyhub&sig=nDOo5CZj0P%2fq1sLehhcKhLB3kVSRASfxGsg%2b6YRmhLU%3d&se=1700000000&skn=DefaultFullSharedAccessSignature"
        )
        #expect(
            result.summary
                == "signed a token for hub 'tutorial' (myhub) with policy 'DefaultFullSharedAccessSignature', valid 1h until 2023-11-14T22:13:20Z"
        )
        #expect(result.outputs == ["expires": .string("2023-11-14T22:13:20Z")], "the time, never the token")
        #expect(
            result.lines == [
                "resource: https://contoso-nh.servicebus.windows.net/myhub",
                "authorization: SharedAccessSignature sr=https%3a%2f%2fcontoso-nh.servicebus.windows.net%2fmyhub&sig=<redacted>&se=1700000000&skn=DefaultFullSharedAccessSignature",
            ])
    }

    @Test func reportNeverContainsTheSignatureOrKey() async throws {
        let result = try await SignStep(hub: hub, lifetime: 3600).run(in: context(now: 1_699_996_400, dryRun: false))
        let everything = ([result.summary] + result.lines).joined(separator: "\n") + "\(result.data)"
        #expect(!everything.contains("nDOo5CZj0P"))
        #expect(!everything.contains(connection.key))
    }

    @Test func endpointOverrideIsSigned() async throws {
        let local = HubDeclaration(
            name: "local", location: at, connection: connection, hubName: "myhub", endpoint: "http://127.0.0.1:8080/")
        let result = try await SignStep(hub: local).run(in: context(now: 0))
        #expect(result.lines.first == "resource: http://127.0.0.1:8080/myhub")
    }

    @Test func failsClearlyWithoutAConnection() async {
        let unresolved = HubDeclaration(name: "tutorial", location: at, connection: nil, hubName: nil, endpoint: nil)
        await #expect(
            throws: StepFailure(
                "hub 'tutorial' has no usable connection string or hub name",
                hint: "set the environment variables its `connection:` and `hub:` reference"
            ).coded(.optionsInvalid)
        ) {
            try await SignStep(hub: unresolved).run(in: context(now: 0))
        }
    }
}
