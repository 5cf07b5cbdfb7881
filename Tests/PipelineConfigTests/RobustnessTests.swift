import Foundation
import PipelineCore
import Testing

@testable import PipelineConfig

/// Findings from probing the loader with broken input; each stays fixed.
@Suite struct RobustnessTests {
    let harness = LoaderHarness()

    @Test func requiredKeysWithoutValuesAreErrors() {
        harness.write(
            "p.yaml",
            "version: 1\nhubs:\n  h:\n    connection:\n    hub: x\ntemplates:\n  t:\n    platform: apns\n    body:\nsteps:\n"
        )
        #expect(
            harness.headlines("p.yaml") == [
                "p.yaml:10:1: error: 'steps' has no value",
                "p.yaml:4:5: error: 'connection' has no value",
                "p.yaml:9:5: error: 'body' has no value",
            ])
    }

    @Test func emptyBodyIsNamed() {
        harness.write("p.yaml", "version: 1\ntemplates:\n  t: { platform: apns, body: \"\" }\nsteps: []\n")
        #expect(harness.headlines("p.yaml").first == "p.yaml:3:30: error: template 't': 'body' is empty")
    }

    @Test func fileReferencesAreBounded() {
        harness.write("big.txt", String(repeating: "x", count: 70_000))
        harness.write("p.yaml", "version: 1\ndescription: ${file:big.txt}\nsteps: []\n")
        let lines = harness.headlines("p.yaml")
        #expect(
            lines.first?.contains("big.txt' is 70000 bytes; the limit is 65536 bytes (referenced as ${file:big.txt})")
                == true)
        harness.write("q.yaml", "version: 1\ndescription: ${file:/dev/zero}\nsteps: []\n")
        #expect(harness.headlines("q.yaml").first?.contains("file '/dev/zero' is not a regular file") == true)
    }

    @Test func crlfFilesKeepLinesColumnsAndSnippets() {
        harness.write("p.yaml", "version: 1\r\nhubs:\r\n  a:\r\n    hub: x\r\n    hub: y\r\nsteps: []\r\n")
        let (_, diagnostics) = harness.load("p.yaml")
        #expect(diagnostics.first?.description == "p.yaml:5:5: error: duplicate key 'hub' in one mapping")
        #expect(diagnostics.first?.sourceLine == "    hub: y")
        harness.write(
            "t.yaml",
            "version: 1\r\ntemplates:\r\n  t:\r\n    platform: apns\r\n    body: |\r\n      {\"aps\":\r\n        {\"alert\": \"$(x, -1)\"}}\r\nsteps: []\r\n"
        )
        #expect(harness.headlines("t.yaml").first?.hasPrefix("t.yaml:7:25: error: template 't': ") == true)
    }

    @Test func nestingGuardFollowsQuotesAndIndentation() {
        // An apostrophe in a plain scalar does not hide the brackets after it.
        harness.write(
            "a.yaml",
            "version: 1\ndescription: don't\nsteps: " + String(repeating: "[", count: 500)
                + String(repeating: "]", count: 500) + "\n")
        #expect(harness.headlines("a.yaml") == ["a.yaml:3:72: error: nesting is deeper than 64 levels"])
        // Deeply indented text inside a block scalar is not nesting.
        harness.write(
            "b.yaml", "version: 1\ndescription: |\n" + String(repeating: " ", count: 600) + "indented\nsteps: []\n")
        #expect(harness.headlines("b.yaml") == ["b.yaml:4:8: warning: 'steps' is empty; the pipeline does nothing"])
    }

    @Test func secondDocumentAndMergeKeysAreExplained() {
        harness.write("d.yaml", "version: 1\nsteps: []\n---\nversion: 1\n")
        #expect(
            harness.headlines("d.yaml") == [
                "d.yaml:3:1: error: a pipeline file holds one YAML document, but a second one starts here"
            ])
        harness.write("m.yaml", "version: 1\nhubs:\n  h:\n    <<: {hub: x}\n    connection: y\nsteps: []\n")
        #expect(harness.headlines("m.yaml").contains("m.yaml:4:5: error: YAML merge keys ('<<') are not supported"))
    }

    @Test func nonRegularPipelineFileIsAnError() {
        let collector = DiagnosticCollector()
        _ = PipelineLoader(options: LoaderOptions(purpose: .validate, environment: [:])).load(
            path: "/dev/null", diagnostics: collector)
        #expect(
            collector.diagnostics.map(\.description) == [
                "/dev/null:1:1: error: pipeline file '/dev/null' is not a regular file"
            ])
    }
}
