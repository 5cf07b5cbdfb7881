import Testing
@testable import PipelineCore

/// Fixes carried by diagnostics, applied to the text they were found in.
@Suite struct FixItTests {
    private func at(_ line: Int, _ column: Int) -> PipelineCore.SourceLocation { PipelineCore.SourceLocation(file: "p.yaml", line: line, column: column) }

    @Test func editsOfOneLineAreMadeFromItsEndAndTheRestIsKept() {
        let text = "steps:\n  # keep me\n  - send: { hub: main, cancel: \"n-1\" }  # and me\n"
        let (fixed, skipped) = FixIt.apply([FixIt(at: at(3, 5), replacing: "send", with: "cancel"),
                                            FixIt(at: at(3, 24), replacing: "cancel", with: "notification-ids")], to: text)
        #expect(fixed == "steps:\n  # keep me\n  - cancel: { hub: main, notification-ids: \"n-1\" }  # and me\n")
        #expect(skipped.isEmpty)
    }

    @Test func columnsCountUnicodeScalarsAsTheParserDoes() {
        let (fixed, _) = FixIt.apply([FixIt(at: at(1, 12), replacing: "send", with: "cancel")], to: "- name: \"é\"\n")
        #expect(fixed == "- name: \"é\"\n", "nothing there to replace")
        let (moved, skipped) = FixIt.apply([FixIt(at: at(1, 7), replacing: "send", with: "cancel")], to: "# é ✓ send\n")
        #expect(moved == "# é ✓ cancel\n" && skipped.isEmpty)
    }

    @Test func aFixWhoseTextIsNotThereIsSkippedNotForced() {
        let text = "  - render: { template: alert }\n"
        let fix = FixIt(at: at(1, 5), replacing: "send", with: "cancel")
        let (fixed, skipped) = FixIt.apply([fix, FixIt(at: at(9, 1), replacing: "x", with: "y")], to: text)
        #expect(fixed == text)
        #expect(skipped.count == 2 && skipped.contains(fix))
    }
}
