import Foundation
import PipelineCore
import Testing

@testable import PipelineConfig

/// Hostile or broken files get one clear diagnostic, never a crash or a hang.
@Suite struct HostileInputTests {
    let harness = LoaderHarness()

    @Test func malformedYAMLPointsAtTheProblem() {
        harness.write("p.yaml", "version: 1\nsteps:\n  - sign: { hub: \"unclosed }\n")
        let lines = harness.headlines("p.yaml")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("p.yaml:4:1: error: invalid YAML:") == true)
    }

    @Test func tabIndentationIsNamed() {
        harness.write("p.yaml", "version: 1\nsteps:\n\t- sign: {}\n")
        let (_, diagnostics) = harness.load("p.yaml")
        #expect(diagnostics.map(\.description) == ["p.yaml:3:1: error: tab character used for indentation"])
        #expect(diagnostics.first?.hint == "YAML indents with spaces only; replace the tab with spaces")
    }

    @Test func duplicateKeyPointsAtTheRepeat() {
        harness.write("p.yaml", "version: 1\nhubs:\n  a:\n    hub: x\n    connection: y\n    hub: z\nsteps: []\n")
        #expect(harness.headlines("p.yaml") == ["p.yaml:6:5: error: duplicate key 'hub' in one mapping"])
    }

    @Test func aliasBombIsRejectedQuickly() {
        var text = "version: 1\na0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ",")
            text += "a\(level): &a\(level) [\(refs)]\n"
        }
        text += "steps: []\n"
        harness.write("bomb.yaml", text)
        let lines = harness.headlines("bomb.yaml")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("document expands to more than 200000 values") == true)
    }

    @Test func deepFlowNestingIsRejectedWithoutCrashing() {
        let depth = 100_000
        harness.write(
            "deep.yaml",
            "version: 1\nsteps: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n")
        #expect(harness.headlines("deep.yaml") == ["deep.yaml:2:72: error: nesting is deeper than 64 levels"])
    }

    @Test func deepBlockNestingIsRejectedWithoutCrashing() {
        harness.write("deep.yaml", "version: 1\nsteps:\n" + String(repeating: "- ", count: 50_000) + "x\n")
        let lines = harness.headlines("deep.yaml")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("nesting is deeper than 64 levels") == true)
    }

    @Test func hugeFileIsRejectedBySize() {
        let line = "# " + String(repeating: "x", count: 1000) + "\n"
        harness.write("big.yaml", "version: 1\n" + String(repeating: line, count: 5000) + "steps: []\n")
        let lines = harness.headlines("big.yaml")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("is 5015021 bytes; the limit is 4194304 bytes") == true)
    }

    @Test func invalidUTF8IsReportedAtItsPosition() {
        harness.write("bad.yaml", bytes: Array("version: 1\nsteps: [caf".utf8) + [0xC3, 0x28] + Array("]\n".utf8))
        let lines = harness.headlines("bad.yaml")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("bad.yaml:2:12: error: pipeline file '") == true)
        #expect(lines.first?.hasSuffix("bad.yaml' is not valid UTF-8: invalid byte 0xC3 at byte 22") == true)
    }

    @Test func byteOrderMarkIsAccepted() {
        harness.write("bom.yaml", bytes: [0xEF, 0xBB, 0xBF] + Array("version: 1\nsteps: []\n".utf8))
        #expect(harness.headlines("bom.yaml") == ["bom.yaml:2:8: warning: 'steps' is empty; the pipeline does nothing"])
    }

    @Test func complexKeysAreRejected() {
        harness.write("p.yaml", "version: 1\n? [a, b]\n: c\nsteps: []\n")
        #expect(
            harness.headlines("p.yaml").first == "p.yaml:2:3: error: mapping keys must be plain names, found a list")
    }
}
