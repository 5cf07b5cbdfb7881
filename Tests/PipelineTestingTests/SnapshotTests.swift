import BuiltinSteps
import Foundation
import PipelineCore
import Testing

@testable import PipelineTesting

@Suite struct SnapshotTests {
    private func result(_ file: String, _ name: String, snapshot: String?) -> CaseResult {
        CaseResult(
            file: file, name: name, location: SourceLocation(file: file, line: 2, column: 5), failures: [], seconds: 0,
            output: "", snapshot: snapshot)
    }

    @Test func aMissingSnapshotIsWrittenWhereYouWorkAndFailsUnderCI() throws {
        let folder = try ScratchFolder()
        let file = folder.path + "/news.test.yaml"
        let underCI = Snapshots.reconcile([result(file, "a", snapshot: "-- run 1\n< x\n")], update: false, ci: true)
        #expect(
            underCI.results[0].failures.map(\.message) == [
                "the case has no snapshot in \(folder.path)/news.test.snapshot, and under CI none is written"
            ])
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/news.test.snapshot"))

        let written = Snapshots.reconcile(
            [result(file, "a", snapshot: "-- run 1\n< x\n"), result(file, "b", snapshot: "-- run 1\n")],
            update: false, ci: false)
        #expect(written.results.allSatisfy { $0.passed })
        #expect(written.notes.count == 2)
        let text = try String(contentsOfFile: folder.path + "/news.test.snapshot", encoding: .utf8)
        #expect(text.hasSuffix("\n== a\n-- run 1\n< x\n\n== b\n-- run 1\n"))
        #expect(Snapshots.sections(of: text).map(\.name) == ["a", "b"])
        #expect(Snapshots.sections(of: text).map(\.body) == ["-- run 1\n< x\n", "-- run 1\n"])

        // The same again: nothing written, nothing failed, even under CI.
        let same = Snapshots.reconcile([result(file, "a", snapshot: "-- run 1\n< x\n")], update: false, ci: true)
        #expect(same.results[0].passed && same.notes.isEmpty)
    }

    @Test func aChangedSnapshotFailsWithADiffUntilUpdated() throws {
        let folder = try ScratchFolder()
        let file = folder.path + "/news.test.yaml"
        _ = Snapshots.reconcile(
            [result(file, "a", snapshot: "-- run 1\n< x\n"), result(file, "b", snapshot: "-- run 1\n")],
            update: false, ci: false)
        let changed = Snapshots.reconcile([result(file, "a", snapshot: "-- run 1\n< y\n")], update: false, ci: false)
        let failure = try #require(changed.results[0].failures.first)
        #expect(failure.message == "the runs differ from the snapshot in \(folder.path)/news.test.snapshot")
        #expect(failure.detail?.hasPrefix("  -- run 1\n- < x\n+ < y\n") == true)

        let updated = Snapshots.reconcile([result(file, "a", snapshot: "-- run 1\n< y\n")], update: true, ci: true)
        #expect(updated.results[0].passed)
        let text = try String(contentsOfFile: folder.path + "/news.test.snapshot", encoding: .utf8)
        // The other case's section is kept.
        #expect(Snapshots.sections(of: text).map(\.body) == ["-- run 1\n< y\n", "-- run 1\n"])
    }

    @Test func aSnapshotHoldsWhatWasSentWithoutTokensOrTheHubsIds() async throws {
        let folder = try ScratchFolder()
        try folder.write("news.yaml", ScratchFolder.audiencePipeline())
        let path = try folder.write(
            "news.test.yaml",
            """
            cases:
              - name: kept
                snapshot: true
                devices:
                  \(ScratchFolder.device("fan-1", tags: ["news"]))
                expect: { deliveries: 1 }
            """)
        let diagnostics = DiagnosticCollector()
        let file = try #require(TestFileDecoder.load(path, diagnostics: diagnostics))
        let runner = TestRunner(steps: BuiltinSteps.registry(), environment: [:], parallelism: 1)
        let snapshot = try #require(await runner.runCase(file.cases[0], of: file).snapshot)
        #expect(
            snapshot == """
                -- run 1
                > POST /myhub/messages?api-version=2020-06
                >   Content-Type: application/json;charset=utf-8
                >   ServiceBusNotification-Format: apple
                >   ServiceBusNotification-Tags: news
                >   | {"aps":{"alert":"Hello"}}
                < fan-1 (apns): {"aps":{"alert":"Hello"}}

                """)
        #expect(!snapshot.contains("SharedAccessSignature") && !snapshot.contains("TrackingId"))
    }
}
