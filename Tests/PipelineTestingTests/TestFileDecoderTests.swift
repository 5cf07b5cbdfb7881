import Foundation
import HubWire
import PipelineCore
import RunFlow
import Testing

@testable import PipelineTesting

@Suite struct TestFileDecoderTests {
    private func load(_ text: String, pipeline: String = ScratchFolder.audiencePipeline()) throws -> (
        PipelineTestFile?, [Diagnostic], ScratchFolder
    ) {
        let folder = try ScratchFolder()
        try folder.write("news.yaml", pipeline)
        let path = try folder.write("news.test.yaml", text)
        let diagnostics = DiagnosticCollector()
        return (TestFileDecoder.load(path, diagnostics: diagnostics), diagnostics.diagnostics, folder)
    }

    @Test func aCaseOfOneRunReadsItsDevicesRunAndExpectations() throws {
        let (file, diagnostics, folder) = try load(
            """
            cases:
              - name: fans get the score
                now: 2026-11-29T02:00:00Z
                params: { message: Red Sox win! }
                env: { REGION: us }
                devices:
                  \(ScratchFolder.device("fan-1", tags: ["news"]))
                expect:
                  exit: 0
                  status: succeeded
                  steps: { notify: succeeded }
                  items: { notify.accepted: 0 }
                  outputs: { notify.notification-ids.0: abc }
                  deliveries: 1
                  received:
                    - { device: fan-1, payload: '{"aps":{"alert":"Red Sox win!"}}', values: { aps.alert: Red Sox win! }, headers: { apns-priority: 10 } }
                  received-nothing: [fan-2, { audience: "news && !fans" }]
            """)
        #expect(diagnostics.isEmpty)
        let testCase = try #require(file?.cases.first)
        #expect(file?.pipeline == folder.path + "/news.yaml")
        #expect(testCase.name == "fans get the score")
        #expect(testCase.devices.map(\.installation?.installationId) == ["fan-1"])
        #expect(testCase.devices.first?.installation?.tags == ["news"])
        let run = try #require(testCase.runs.first)
        #expect(testCase.runs.count == 1 && run.label.isEmpty)
        #expect(run.now == Date(timeIntervalSince1970: 1_795_917_600))
        #expect(run.parameters == ["message": "Red Sox win!"] && run.environment == ["REGION": "us"])
        #expect(run.expect.exit == 0 && run.expect.status == "succeeded" && run.expect.deliveries == 1)
        #expect(run.expect.steps.map(\.key) == ["notify"] && run.expect.items.map(\.value) == [0])
        #expect(run.expect.outputs.first?.value == .string("abc"))
        let received = try #require(run.expect.received.first)
        #expect(received.device == "fan-1" && received.values.first?.value == .string("Red Sox win!"))
        #expect(received.headers.first?.value == "10")
        #expect(run.expect.receivedNothing.count == 2)
        #expect(run.expect.location.line == 9)
    }

    @Test func runsInheritWhatTheCaseGivesAndEachHasItsOwnExpectations() throws {
        let (file, diagnostics, _) = try load(
            """
            cases:
              - name: two nights
                params: { message: Hi }
                runs:
                  - expect: { deliveries: 1 }
                  - name: the next night
                    now: 2026-11-30T02:00:00Z
                    again: true
                    expect: { status: already-completed }
            """)
        #expect(diagnostics.isEmpty)
        let runs = try #require(file?.cases.first?.runs)
        #expect(runs.map(\.label) == ["run 1", "the next night"])
        #expect(runs.map(\.parameters) == [["message": "Hi"], ["message": "Hi"]])
        #expect(runs.map(\.again) == [false, true])
        #expect(runs[0].expect.deliveries == 1 && runs[1].expect.status == "already-completed")
    }

    @Test func problemsAreReportedAtTheirLineAndColumnWithTheFix() throws {
        let (file, diagnostics, _) = try load(
            """
            cases:
              - name: one
                expect: { stauts: succeeded, exit: 0 }
              - name: one
                expect: { status: succeded, items: { notify: 3 } }
              - name: three
                expect: { exit: 0 }
                runs: [{ expect: { exit: 0 } }]
            """)
        #expect(file == nil)
        let shown = diagnostics.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" }
        #expect(shown.contains("3:15 unknown key 'stauts'; did you mean 'status'?"))
        #expect(shown.contains("4:5 a case named 'one' is already at line 2"))
        #expect(shown.contains("5:23 unknown run status 'succeded'; did you mean 'succeeded'?"))
        #expect(shown.contains { $0.hasPrefix("5:42 'notify' must be a step id and an item state") })
        #expect(shown.contains("7:13 a case with `runs:` gives each run its own `expect:`"))
    }

    @Test func aPipelineThatIsNotThereAndAFileWithoutCasesAreRefused() throws {
        let (missing, problems, _) = try load("pipeline: nightly.yaml\ncases: []\n")
        #expect(missing == nil)
        #expect(
            problems.map(\.message).contains(
                "the pipeline '\(problems.first?.location?.file.replacingOccurrences(of: "news.test.yaml", with: "") ?? "")nightly.yaml' does not exist"
            ))
        #expect(problems.map(\.message).contains("'cases' has no case"))
    }

    @Test func aTestFileWhosePipelineIsNotThereSaysSo() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("orphan.test.yaml", "cases:\n  - name: x\n")
        let diagnostics = DiagnosticCollector()
        #expect(TestFileDecoder.load(path, diagnostics: diagnostics) == nil)
        #expect(
            diagnostics.diagnostics.map(\.message) == [
                "the pipeline this file tests, '\(folder.path)/orphan.yaml', does not exist"
            ])
    }

    @Test func aTableWithoutRowsIsRefusedForItHasNoColumns() throws {
        let (file, diagnostics, _) = try load("cases:\n  - name: x\n    tables: { unread: { users: [] } }\n")
        #expect(file == nil)
        #expect(diagnostics.map(\.message) == ["table 'users' has no rows, so no columns"])
    }

    @Test func aTestFileNamesItsPipelineByItsOwnName() {
        #expect(TestFileDecoder.defaultPipeline(for: "pipelines/nightly.test.yaml") == "pipelines/nightly.yaml")
        #expect(
            TestFileDecoder.defaultPipeline(for: "pipelines/nightly.tests/bad-rows.yaml") == "pipelines/nightly.yaml")
        #expect(TestFileDecoder.defaultPipeline(for: "pipelines/nightly.yaml") == nil)
    }

    @Test func devicesComeInlineOrFromAFile() throws {
        let folder = try ScratchFolder()
        try folder.write("news.yaml", ScratchFolder.audiencePipeline())
        try folder.write(
            "devices.yaml",
            """
            \(ScratchFolder.device("fan-1", tags: ["news"]))
            - { installationId: fan-2, platform: fcmv1, pushChannel: token-2, userId: bob, templates: { t: { body: '{}', tags: [a] } } }
            """)
        let path = try folder.write("news.test.yaml", "cases:\n  - { name: from a file, devices: devices.yaml }\n")
        let diagnostics = DiagnosticCollector()
        let file = TestFileDecoder.load(path, diagnostics: diagnostics)
        #expect(diagnostics.diagnostics.isEmpty)
        let devices = try #require(file?.cases.first?.devices)
        #expect(devices.map(\.installation?.installationId) == ["fan-1", "fan-2"])
        #expect(devices[1].installation?.userId == "bob" && devices[1].installation?.templates?["t"]?.tags == ["a"])
    }
}
