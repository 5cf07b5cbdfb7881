import CommandTestSupport
import Foundation
import Testing

/// `pushline test` as the real executable: a shipped pipeline's shipped tests, over a copy whose template is broken.
@Suite struct PipelineTestProcessTests {
    @Test func theShippedTestsCatchABrokenTemplateAndSayWhereAsGitHubAnnotations() async throws {
        let directory = NSTemporaryDirectory() + "pushline-test-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pipelines = CommandRunner.root + "/pipelines/"
        let pipeline = try String(contentsOfFile: pipelines + "seed-tutorial.yaml", encoding: .utf8)
        // A template that still parses and renders, with the alert under a misspelled key: only what the device
        // receives shows it.
        let broken = pipeline.replacingOccurrences(
            of: #"body: '{"aps":{"alert":"$(message)"}}'"#, with: #"body: '{"aps":{"alrt":"$(message)"}}'"#)
        #expect(broken != pipeline)
        try broken.write(toFile: directory + "/seed-tutorial.yaml", atomically: true, encoding: .utf8)
        for file in ["seed-tutorial.test.yaml", "seed-tutorial.test.snapshot"] {
            try FileManager.default.copyItem(atPath: pipelines + file, toPath: directory + "/" + file)
        }

        let process = try PushlineProcess(
            ["test", "--ci"], environment: ["GITHUB_ACTIONS": "true"], directory: directory)
        #expect(try await process.waitForExit() == 1)
        let output = process.stdout
        #expect(
            output.contains("FAIL  seed-tutorial.test.yaml: the seed device receives the tutorial's alert, once"),
            "\(output)")
        #expect(
            output.contains(
                "seed-tutorial.test.yaml:11:18: output preview.payload is {\"aps\":{\"alrt\":\"Hello from Postman!\"}}, expected {\"aps\":{\"alert\":\"Hello from Postman!\"}}"
            ), "\(output)")
        #expect(output.contains("seed-tutorial.test.yaml:13:11: device 'seed-1' received another payload"), "\(output)")
        #expect(output.contains("-     \"alert\" : \"Hello from Postman!\""), "\(output)")
        #expect(output.contains("+     \"alrt\" : \"Hello from Postman!\""), "\(output)")
        #expect(output.contains("template properties sent: {\"message\":\"Hello from Postman!\"}"), "\(output)")
        #expect(
            output.contains(
                "::error file=seed-tutorial.test.yaml,line=13,col=11,title=pushline test%3A the seed device receives the tutorial's alert%2C once::device 'seed-1' received another payload"
            ), "\(output)")
        // The snapshot shows the change in what was sent.
        #expect(output.contains("the runs differ from the snapshot in seed-tutorial.test.snapshot"), "\(output)")
        #expect(
            output.contains(
                "+ < seed-1 (apns, template genericTemplate): {\"aps\":{\"alrt\":\"Hello from Postman!\"}}"),
            "\(output)")
        // The hub-down case checks no payload: it still passes.
        #expect(
            output.contains("PASS  seed-tutorial.test.yaml: a hub that refuses every send fails the run"), "\(output)")

        // The pipeline as shipped passes the same tests.
        try pipeline.write(toFile: directory + "/seed-tutorial.yaml", atomically: true, encoding: .utf8)
        let fixed = try PushlineProcess(["test", "seed-tutorial.yaml", "--ci"], directory: directory)
        #expect(try await fixed.waitForExit() == 0, "\(fixed.stdout)")
        #expect(fixed.stdout.contains("3 passed, 0 failed (3 cases in 1 file"), "\(fixed.stdout)")
    }
}
