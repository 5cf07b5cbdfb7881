import CommandTestSupport
import Foundation
import Testing

/// Findings from probing the commands with broken input; each stays fixed.
@Suite struct RobustnessCommandTests {
    let connection =
        "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY="

    @Test func sasRejectsAbsurdLifetimesAndPastExpiries() async {
        for arguments in [
            ["--lifetime", "9223372036854775807s"], ["--lifetime", "0s"], ["--expiry", "0"], ["--expiry", "-5"],
            ["--expiry", "99999999999"], ["--endpoint", "http://"], ["--hub", "/"],
        ] {
            let output = await CommandRunner.run(
                ["sas", "--connection-string", connection, "--hub", "myhub"] + arguments)
            #expect(output.status == 2, "\(arguments)")
            #expect(output.out == "", "\(arguments)")
        }
    }

    @Test func runtimeFailuresDoNotPrintUsage() async {
        let output = await CommandRunner.run(["sas", "--connection-string", "nonsense", "--hub", "h"])
        #expect(output.status == 2)
        #expect(output.err.hasPrefix("error: invalid connection string: "))
        #expect(!output.err.contains("USAGE"))
        #expect(!output.err.contains("Usage"))
    }

    @Test func unwritableReportFailsBeforeAnythingRuns() async {
        let output = await CommandRunner.run(["run", "pipelines/breaking-news.yaml", "--dry-run", "--report", "/"])
        #expect(output.status == 2)
        #expect(output.out == "")
        #expect(output.err == "error: --report '/' is a directory; give a file path\n")
    }

    @Test func invalidPipelineStillPrintsAJSONReport() async throws {
        let output = await CommandRunner.run(["run", "pipelines/seed-tutorial.yaml", "--format", "json"])
        #expect(output.status == 2)
        let json = try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any]
        #expect(json?["status"] as? String == "invalid")
        #expect((json?["diagnostics"] as? [Any])?.count == 2)
    }

    @Test func explainMatchTrimsSpaces() async {
        let output = await CommandRunner.run(["explain", "a && b", "--match", " a ,  b  "])
        #expect(output.status == 0)
        #expect(output.out.hasSuffix("\nmatch\n"))
    }

    @Test func propertiesKeepNumberTextAndRejectDuplicates() async {
        let template = "Tests/PushlineCLITests/Inputs/number.json"
        let kept = await CommandRunner.run([
            "render", "--file", template, "--properties", #"{"n":1.0,"big":123456789012345678901234567890}"#,
        ])
        #expect(kept.out == "{\"n\":\"1.0\",\"big\":\"123456789012345678901234567890\"}\n")
        let duplicate = await CommandRunner.run(["render", "--file", template, "--properties", #"{"n":"a","n":"b"}"#])
        #expect(duplicate.status == 2)
        #expect(duplicate.err.contains("--properties:1:"))
        #expect(duplicate.err.contains("duplicate key 'n'"))
    }

    @Test func renderExplainsATemplateThatCouldNotLoad() async {
        let output = await CommandRunner.run([
            "render", "Tests/PushlineCLITests/Inputs/unresolved-body.yaml", "--template", "t",
        ])
        #expect(output.status == 2)
        #expect(output.err.contains("warning: environment variable 'PUSHLINE_TEST_UNSET_BODY' is not set"))
        #expect(output.err.hasSuffix("error: template 't' could not be loaded; see the diagnostics above\n"))
    }
}
