import Foundation
import PipelineCore
import Testing

@testable import PipelineTesting

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct TestReportTests {
    private let report = TestReport(
        results: [
            CaseResult(
                file: "pipelines/nightly.test.yaml", name: "sends once",
                location: SourceLocation(file: "pipelines/nightly.test.yaml", line: 3, column: 5), failures: [],
                seconds: 0.25, output: ""),
            CaseResult(
                file: "pipelines/nightly.test.yaml", name: "alert <wrong> & \"quoted\"",
                location: SourceLocation(file: "pipelines/nightly.test.yaml", line: 9, column: 5),
                failures: [
                    TestFailure(
                        run: "run 2",
                        location: SourceLocation(file: "pipelines/nightly.test.yaml", line: 14, column: 11),
                        message: "device 'a-1' received another payload, 100%", detail: "- a\n+ b")
                ], seconds: 0.5, output: "pipelines/nightly.yaml: succeeded\n"),
            CaseResult(
                file: "pipelines/other.test.yaml", name: "other",
                location: SourceLocation(file: "pipelines/other.test.yaml", line: 2, column: 5), failures: [],
                seconds: 0.1, output: ""),
        ], seconds: 1)

    @Test func junitHasASuitePerFileAndACasePerTestCase() throws {
        let document = try XMLDocument(data: Data(report.junit.utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites" && root.attribute(forName: "tests")?.stringValue == "3")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        let suites = root.elements(forName: "testsuite")
        #expect(
            suites.map { $0.attribute(forName: "name")?.stringValue } == [
                "pipelines/nightly.test.yaml", "pipelines/other.test.yaml",
            ])
        let cases = suites[0].elements(forName: "testcase")
        #expect(
            cases.map { $0.attribute(forName: "name")?.stringValue } == ["sends once", "alert <wrong> & \"quoted\""])
        let failure = try #require(cases[1].elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == "device 'a-1' received another payload, 100%")
        #expect(failure.stringValue?.contains("pipelines/nightly.test.yaml:14:11: run 2:") == true)
        #expect(cases[0].elements(forName: "failure").isEmpty)
    }

    @Test func tapHasATestPointPerCaseAndTheFailuresAsYAML() {
        let lines = report.tap.split(separator: "\n").map(String.init)
        #expect(lines.prefix(3) == ["TAP version 13", "1..3", "ok 1 - pipelines/nightly.test.yaml: sends once"])
        #expect(lines[3] == "not ok 2 - pipelines/nightly.test.yaml: alert <wrong> & \"quoted\"")
        #expect(lines.contains("    - at: \"pipelines/nightly.test.yaml:14:11\""))
        #expect(lines.last == "ok 3 - pipelines/other.test.yaml: other")
    }

    @Test func jsonCarriesTotalsAndEveryFailure() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["passed"] as? Int == 2 && object["failed"] as? Int == 1)
        let cases = try #require(object["cases"] as? [[String: Any]])
        #expect(cases.map { $0["status"] as? String } == ["passed", "failed", "passed"])
        let failure = try #require((cases[1]["failures"] as? [[String: Any]])?.first)
        #expect(failure["location"] as? String == "pipelines/nightly.test.yaml:14:11")
    }

    @Test func githubAnnotationsEscapeWhatWorkflowCommandsReserve() {
        #expect(
            report.githubAnnotations
                == "::error file=pipelines/nightly.test.yaml,line=14,col=11,title=pushline test%3A alert <wrong> & \"quoted\"::device 'a-1' received another payload, 100%25%0A- a%0A+ b\n"
        )
    }

    @Test func textShowsEachFailureAtItsExpectationAndATotal() {
        #expect(
            report.text.contains(
                "FAIL  pipelines/nightly.test.yaml: alert <wrong> & \"quoted\" (0.50s)\n      pipelines/nightly.test.yaml:14:11: run 2: device 'a-1' received another payload, 100%\n        - a\n        + b\n"
            ))
        #expect(report.text.hasSuffix("\n2 passed, 1 failed (3 cases in 2 files, 1.0s)\n"))
    }
}
