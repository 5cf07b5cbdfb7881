import BuiltinSteps
import Foundation
import PipelineCore
import TestSupport
import Testing

@testable import PipelineTesting

/// `mocks:` against the repository's crm-digest.yaml, whose two plugins are asked what they are (python3), never run.
@Suite struct MockTests {
    private let runner = TestRunner(
        steps: BuiltinSteps.registry(), environment: ProcessInfo.processInfo.environment, parallelism: 2)

    private func run(_ cases: String) async throws -> [CaseResult] {
        let folder = try ScratchFolder()
        let pipeline = TestFiles.packageRoot.appendingPathComponent("pipelines/crm-digest.yaml").path
        let path = try folder.write(
            "crm.test.yaml",
            """
            pipeline: \(pipeline)
            cases:
            \(cases)
            """)
        let diagnostics = DiagnosticCollector()
        let file = try #require(TestFileDecoder.load(path, diagnostics: diagnostics), "\(diagnostics.diagnostics)")
        return await runner.run(file.cases.map { (file, $0) })
    }

    private let env =
        #"{ CRM_URL: "https://crm.example.com/api", CRM_TOKEN: t, OPS_WEBHOOK: "https://chat.example.com/h" }"#

    @Test func aMockedPluginHandsOnItsRowsAndTheNextStepSendsThem() async throws {
        let results = try await run(
            """
              - name: mocked
                env: \(env)
                devices:
                  - { installationId: ann, platform: apns, pushChannel: \(String(repeating: "A", count: 64)), userId: ann, templates: { t: { body: '{"aps":{"alert":"$(message)"}}' } } }
                mocks:
                  members: { rows: [{ userId: ann, name: Ann }, { userId: bo, name: Bo }], outputs: { count: 2 } }
                  webhook: {}
                expect:
                  outputs: { members.count: 2 }
                  items: { digest.accepted: 2 }
                  received: [{ device: ann, values: { aps.alert: "Hi Ann, your weekly digest is ready" } }]
            """)
        #expect(results.map(\.failures) == [[]])
    }

    @Test func aMockThatMissesIsAFailureNeverIgnored() async throws {
        let results = try await run(
            """
              - name: no such step
                env: \(env)
                mocks: { membres: { rows: [] } }
              - name: not a plugin
                env: \(env)
                mocks: { digest: { rows: [] } }
              - name: no such output
                env: \(env)
                mocks: { members: { outputs: { total: 3 } }, webhook: {} }
            """)
        #expect(
            results.map { $0.failures.map(\.message) } == [
                ["a mock is given for step 'membres', which the pipeline does not have; did you mean 'members'?"],
                ["step 'digest' is a `send` step: only a plugin's steps are mocked"],
                ["the plugin 'http-rows' declares no output 'total'"],
            ])
    }
}
