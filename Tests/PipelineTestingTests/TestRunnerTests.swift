import BuiltinSteps
import Foundation
import PipelineCore
import RunFlow
import Testing

@testable import PipelineTesting

/// The runner against pipelines of the tests' own: each case on its own emulator in the process and journal.
@Suite struct TestRunnerTests {
    private let runner = TestRunner(
        steps: BuiltinSteps.registry(), environment: ProcessInfo.processInfo.environment, parallelism: 2)

    /// Writes `pipeline` and `test`, then runs every case of the test file.
    private func run(_ test: String, pipeline: String = ScratchFolder.audiencePipeline()) async throws -> [CaseResult] {
        let folder = try ScratchFolder()
        try folder.write("news.yaml", pipeline)
        let path = try folder.write("news.test.yaml", test)
        let diagnostics = DiagnosticCollector()
        let file = try #require(TestFileDecoder.load(path, diagnostics: diagnostics), "\(diagnostics.diagnostics)")
        return await runner.run(file.cases.map { (file, $0) })
    }

    @Test func aCaseWhoseExpectationsHoldPasses() async throws {
        let results = try await run(
            """
            cases:
              - name: fans get the alert, others nothing
                idempotent: true
                params: { message: Red Sox win! }
                devices:
                  \(ScratchFolder.device("fan-1", tags: ["news"]))
                  \(ScratchFolder.device("other-1", tags: ["weather"]))
                expect:
                  exit: 0
                  status: succeeded
                  steps: { notify: succeeded }
                  deliveries: 1
                  received: [{ device: fan-1, platform: apns, payload: '{"aps":{"alert":"Red Sox win!"}}' }]
                  received-nothing: [other-1, { audience: weather }]
            """)
        #expect(results.map(\.failures) == [[]])
    }

    @Test func aPayloadThatDiffersFailsWithADiffAtTheExpectation() async throws {
        let results = try await run(
            """
            cases:
              - name: wrong alert
                devices:
                  \(ScratchFolder.device("fan-1", tags: ["news"]))
                expect:
                  received: [{ device: fan-1, payload: '{"aps":{"alert":"Goodbye"}}' }]
            """)
        let failure = try #require(results.first?.failures.first)
        #expect(results.first?.failures.count == 1)
        #expect(failure.message == "device 'fan-1' received another payload")
        #expect(failure.location.line == 6 && failure.location.column == 18)
        #expect(failure.detail?.contains("-     \"alert\" : \"Goodbye\"\n+     \"alert\" : \"Hello\"") == true)
    }

    @Test func aTemplateSendsFailureShowsThePropertiesThatFedIt() async throws {
        let pipeline = ScratchFolder.rowsPipeline
        let results = try await run(
            """
            cases:
              - name: rows
                devices:
                  - { installationId: a-1, platform: apns, pushChannel: \(String(repeating: "B", count: 64)), tags: ["user:a"], templates: { t: { body: '{"aps":{"alert":"$(message)"}}' } } }
                rows: { digest: [{ user: a, message: Hi }] }
                expect:
                  items: { digest.accepted: 1 }
                  received: [{ device: a-1, values: { aps.alert: Hello } }]
            """, pipeline: pipeline)
        let failure = try #require(results.first?.failures.first)
        #expect(failure.message == "device 'a-1': aps.alert is \"Hi\", expected \"Hello\"")
        #expect(failure.detail?.contains(#"template properties sent: {"message":"Hi"}"#) == true)
    }

    @Test func rowsForAStepThePipelineLacksAreAFailureNotIgnored() async throws {
        let results = try await run(
            """
            cases:
              - name: typo
                rows: { digets: [{ user: a, message: Hi }] }
                expect: { exit: 0 }
            """, pipeline: ScratchFolder.rowsPipeline)
        let failures = try #require(results.first?.failures)
        #expect(
            failures.map(\.message) == [
                "rows are given for step 'digets', which the pipeline does not have; did you mean 'digest'?"
            ])
        #expect(failures.first?.location.line == 3)
    }

    @Test func aSecondRunOfTheSameDataSendsNothingAndTheIdempotentCheckSeesIt() async throws {
        let results = try await run(
            """
            cases:
              - name: twice
                devices:
                  - { installationId: a-1, platform: apns, pushChannel: \(String(repeating: "C", count: 64)), tags: ["user:a"], templates: { t: { body: '{"aps":{"alert":"$(message)"}}' } } }
                runs:
                  - rows: { digest: [{ user: a, message: Hi }] }
                    expect: { deliveries: 1 }
                  - rows: { digest: [{ user: a, message: Hi }] }
                    expect: { status: already-completed, deliveries: 0 }
                  - name: a new row
                    rows: { digest: [{ user: a, message: Hi }, { user: a, message: Bye }] }
                    expect: { items: { digest.accepted: 1, digest.duplicates: 1 }, received: [{ device: a-1, values: { aps.alert: Bye } }] }
              - name: again sends again
                idempotent: true
                devices:
                  - { installationId: a-1, platform: apns, pushChannel: \(String(repeating: "C", count: 64)), tags: ["user:a"], templates: { t: { body: '{"aps":{"alert":"$(message)"}}' } } }
                rows: { digest: [{ user: a, message: Hi }] }
                again: true
                expect: { deliveries: 1 }
            """, pipeline: ScratchFolder.rowsPipeline)
        #expect(results.map(\.failures) == [[], []])
    }

    @Test func injectedFaultsAreRetriedOnTheCasesClockNotWaitedFor() async throws {
        let results = try await run(
            """
            cases:
              - name: the hub is down
                devices:
                  \(ScratchFolder.device("fan-1", tags: ["news"]))
                faults: [{ status: 503, rate: 1, retry-after: 600, operations: [send] }]
                expect: { exit: 1, status: failed, steps: { notify: failed }, deliveries: 0 }
            """)
        #expect(results.map(\.failures) == [[]])
        // Ten minutes of Retry-After per attempt passed on the case's clock, not the machine's.
        #expect((results.first?.seconds ?? 600) < 60)
    }

    @Test func diagnosticsAreCheckedWithoutRunning() async throws {
        let broken = ScratchFolder.audiencePipeline(body: #"{"aps":{"alert":"$(message"}}"#)
        let results = try await run(
            """
            cases:
              - name: the broken template is refused at its line
                expect: { diagnostics: [{ line: 7, message: "template" }] }
              - name: expecting none fails
                expect: { diagnostics: [] }
            """, pipeline: broken)
        #expect(results[0].failures.isEmpty)
        #expect(results[1].failures.map(\.message) == ["the pipeline gave 1 diagnostic, expected none"])
    }

    @Test func aRunCutOffAndResumedDeliversWhatOneUncutRunDoes() async throws {
        let devices = (1...4).map { index in
            "- { installationId: u\(index), platform: apns, pushChannel: \(String(repeating: "\(index)", count: 64)), tags: [\"user:u\(index)\"], templates: { t: { body: '{\"aps\":{\"alert\":\"$(message)\"}}' } } }"
        }.joined(separator: "\n      ")
        let rows = (1...4).map { "{ user: u\($0), message: m\($0) }" }.joined(separator: ", ")
        let results = try await run(
            """
            cases:
              - name: cut early
                crash-after: 1
                devices:
                  \(devices)
                rows: { digest: [\(rows)] }
                expect: { deliveries: 4 }
              - name: cut late
                crash-after: 4
                devices:
                  \(devices)
                rows: { digest: [\(rows)] }
                expect: { deliveries: 4 }
              - name: never cut
                crash-after: 5
                devices:
                  \(devices)
                rows: { digest: [\(rows)] }
                expect: { deliveries: 4 }
            """, pipeline: ScratchFolder.rowsPipeline)
        #expect(results[0].failures.isEmpty, "\(results[0].failures)")
        #expect(results[1].failures.isEmpty, "\(results[1].failures)")
        #expect(
            results[2].failures.map(\.message) == ["the run made fewer than 5 requests: crash-after never cut it off"])
    }

    @Test func theCrashCheckFailsWhenTheDevicesReceivedOtherwise() async throws {
        let folder = try ScratchFolder()
        try folder.write("news.yaml", ScratchFolder.audiencePipeline())
        let path = try folder.write(
            "news.test.yaml",
            "cases:\n  - name: c\n    crash-after: 1\n    devices:\n      \(ScratchFolder.device("fan-1", tags: ["news"]))\n"
        )
        let diagnostics = DiagnosticCollector()
        let file = try #require(TestFileDecoder.load(path, diagnostics: diagnostics))
        // A reference of nothing: the cut run's one delivery is one too many.
        let failures = await runner.crashCheck(file.cases[0], of: file, after: 1, reference: [])
        #expect(
            failures.map(\.message) == ["cut off and resumed, the devices did not receive what one uncut run delivers"])
        #expect(failures.first?.detail?.contains("+ fan-1 (apns): {\"aps\":{\"alert\":\"Hello\"}}") == true)
    }

    /// The pipeline sends a native APNs notification: a native registration receives it.
    @Test func registrationsAreDevicesTooNamedByTheirHandle() async throws {
        let results = try await run(
            """
            cases:
              - name: a registration
                devices:
                  - registration: { platform: apns, handle: \(String(repeating: "D", count: 64)), tags: [news] }
                  - registration: { platform: fcmv1, handle: fcm-other, tags: [weather] }
                expect:
                  received: [{ device: \(String(repeating: "D", count: 64)), platform: apns, payload: '{"aps":{"alert":"Hello"}}' }]
                  received-nothing: [fcm-other]
              - name: a refused one
                devices:
                  - registration: { platform: apns, handle: \(String(repeating: "E", count: 64)), tags: ["no spaces allowed"] }
            """)
        #expect(results[0].failures.isEmpty, "\(results[0].failures)")
        #expect(
            results[1].failures.first?.message.hasPrefix(
                "the hub refused the registration of handle '\(String(repeating: "E", count: 64))' (400: ") == true)
    }

    @Test func replacingAStepsRowsTakesBackOnlyWhatWasSaidOfThem() async throws {
        // The rows' reference does not resolve (no ROWS): the test's rows replace it. The audience's beside it on the
        // same line does not either, and the case says so.
        let pipeline = """
            version: 1
            hubs:
              main: { connection: "${env:NH_CONNECTION}", hub: "${env:NH_HUB}" }
            steps:
              - id: digest
                send: { hub: main, for-each: "${env:ROWS}", audience: "${env:AUDIENCE}", properties: { message: "$(message)" } }

            """
        let results = try await run(
            """
            cases:
              - name: rows given, audience missing
                rows: { digest: [{ user: a, message: Hi }] }
                expect: { exit: 0 }
            """, pipeline: pipeline)
        let failure = try #require(results.first?.failures.first)
        #expect(failure.message == "the pipeline was refused: 1 error")
        #expect(failure.detail?.contains("'AUDIENCE' is not set") == true, "\(failure.detail ?? "")")
        #expect(failure.detail?.contains("ROWS") == false)
    }
}
