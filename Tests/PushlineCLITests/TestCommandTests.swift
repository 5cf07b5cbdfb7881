import CommandTestSupport
import Foundation
import TestSupport
import Testing

/// `pushline test` as a command: what it finds, selects, prints and exits with.
@Suite struct TestCommandTests {
    /// What a run sees of the tester's environment: PATH finds the example plugins' python3.
    let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]

    @Test func everyShippedPipelinesTestsPass() async {
        let output = await CommandRunner.run(["test", "pipelines/"], environment: environment)
        #expect(output.status == 0, "\(output.out)\(output.err)")
        for pipeline in [
            "breaking-news", "crm-digest", "daily-digest", "digest-from-database", "notify-user",
            "schedule-then-cancel", "seed-tutorial",
        ] {
            #expect(output.out.contains("PASS  pipelines/\(pipeline).test.yaml: "), "\(pipeline)")
        }
        #expect(output.out.contains(" passed, 0 failed ("))
        #expect(!output.out.contains("FAIL"))
    }

    @Test func aFilterThatSelectsNothingIsAnErrorUnlessAllowed() async {
        let none = await CommandRunner.run(["test", "pipelines/", "--run", "no such case"], environment: environment)
        #expect(none.status == 2)
        #expect(none.err.hasPrefix("pushline test: no case selected: --run 'no such case' matches none of "))
        #expect(none.err.hasSuffix(" (--allow-empty to permit)\n"))
        let allowed = await CommandRunner.run(
            ["test", "pipelines/", "--run", "no such case", "--allow-empty"], environment: environment)
        #expect(allowed.status == 0)
        #expect(allowed.out.contains("0 passed, 0 failed (0 cases in 0 files"))
    }

    @Test func theFilterPicksCasesByName() async {
        let output = await CommandRunner.run(
            ["test", "pipelines/seed-tutorial.yaml", "--run", "parameter", "--format", "tap"], environment: environment)
        #expect(output.status == 0)
        #expect(
            output.out
                == "TAP version 13\n1..1\nok 1 - pipelines/seed-tutorial.test.yaml: the message parameter changes the preview and the alert\n"
        )
    }

    @Test func anInvalidTestFileRunsNothingAndSaysWhereItIsWrong() async throws {
        let folder = TestScratchFolder.make()
        try "version: 1\nsteps: []\n".write(toFile: folder + "/nightly.yaml", atomically: true, encoding: .utf8)
        try "cases:\n  - name: typo\n    expect: { exitt: 0 }\n".write(
            toFile: folder + "/nightly.test.yaml", atomically: true, encoding: .utf8)
        let output = await CommandRunner.run(["test", folder], environment: environment)
        #expect(output.status == 2)
        #expect(output.out.isEmpty)
        #expect(output.err.contains("nightly.test.yaml:3:15: error: unknown key 'exitt'; did you mean 'exit'?"))
        #expect(output.err.hasSuffix("pushline test: not run: 1 error\n"))
    }

    @Test func aPipelineWithoutTestsOrAPathThatIsNotThereIsAnError() async {
        let output = await CommandRunner.run(
            ["test", "Tests/PushlineCLITests/Inputs/broken.yaml", "no-such-folder"], environment: environment)
        #expect(output.status == 2)
        #expect(
            output.err.contains(
                "pushline test: 'Tests/PushlineCLITests/Inputs/broken.yaml' has no tests: write broken.test.yaml beside it"
            ))
        #expect(output.err.contains("pushline test: 'no-such-folder' does not exist"))
    }

    @Test func junitGoesToStandardOutputOrAFileAndAnnotationsUnderGitHubActions() async throws {
        let folder = TestScratchFolder.make()
        let output = await CommandRunner.run(
            ["test", "pipelines/seed-tutorial.yaml", "--format", "junit", "--junit-xml", folder + "/results.xml"],
            environment: environment.merging(["GITHUB_ACTIONS": "true"]) { $1 })
        #expect(output.status == 0)
        #expect(
            output.out.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"pushline test\" tests=\"3\" failures=\"0\""
            ))
        let written = try String(contentsOfFile: folder + "/results.xml", encoding: .utf8)
        #expect(written.contains("pipelines/seed-tutorial.test.yaml\" tests=\"3\" failures=\"0\""))
        // Nothing failed: no annotation.
        #expect(!output.out.contains("::error"))
    }

    @Test func validateChecksTestFilesAsTestFiles() async {
        let output = await CommandRunner.run(["validate", "pipelines/daily-digest.test.yaml"])
        #expect(output.status == 0)
        #expect(output.out == "pipelines/daily-digest.test.yaml: ok\n")
    }
}

/// A scratch folder of a test's own, under the test process's.
enum TestScratchFolder {
    static func make() -> String {
        let path = TestScratch.root.appendingPathComponent("test-command-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
