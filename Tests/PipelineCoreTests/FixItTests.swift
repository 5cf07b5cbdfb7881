import Testing

@testable import PipelineCore

/// Fixes carried by diagnostics, applied to the text they were found in.
@Suite struct FixItTests {
    private func at(_ line: Int, _ column: Int) -> PipelineCore.SourceLocation {
        PipelineCore.SourceLocation(file: "p.yaml", line: line, column: column)
    }

    @Test func editsOfOneLineAreMadeFromItsEndAndTheRestIsKept() {
        let text = "steps:\n  # keep me\n  - send: { hub: main, cancel: \"n-1\" }  # and me\n"
        let (fixed, skipped) = FixIt.apply(
            [
                FixIt(at: at(3, 5), replacing: "send", with: "cancel"),
                FixIt(at: at(3, 24), replacing: "cancel", with: "notification-ids"),
            ], to: text)
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

    @Test func aFixMayReplaceWholeLinesAndInsertNewOnes() {
        let text =
            "steps:\n  - send:\n      hub: main\n      outcomes:\n        wait: 1m\n      audience: ops\n  - render: {}\n"
        let removal = FixIt(at: at(4, 1), replacing: "      outcomes:\n        wait: 1m\n", with: "")
        let insertion = FixIt(at: at(7, 1), replacing: "", with: "  - outcomes: { hub: main, of: send-1 }\n")
        let (fixed, skipped) = FixIt.apply(groups: [[removal, insertion]], to: text)
        #expect(skipped.isEmpty)
        #expect(
            fixed
                == "steps:\n  - send:\n      hub: main\n      audience: ops\n  - outcomes: { hub: main, of: send-1 }\n  - render: {}\n"
        )
    }

    @Test func theFixesOfOneChangeAreMadeAllTogetherOrNotAtAll() {
        let text = "a: 1\nb: 2\n"
        let fits = FixIt(at: at(1, 4), replacing: "1", with: "one")
        let stale = FixIt(at: at(2, 4), replacing: "3", with: "three")
        let other = FixIt(at: at(2, 1), replacing: "b", with: "bee")
        let (fixed, skipped) = FixIt.apply(groups: [[fits, stale], [other]], to: text)
        #expect(fixed == "a: 1\nbee: 2\n", "the change with a stale edit is left whole; the other is made")
        #expect(skipped == [[fits, stale]])
        // Lines a multi-line edit expects must read exactly so.
        let (same, missed) = FixIt.apply(groups: [[FixIt(at: at(1, 1), replacing: "a: 1\nb: 3", with: "")]], to: text)
        #expect(same == text && missed.count == 1)
    }
}
