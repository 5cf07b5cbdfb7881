import Testing

@testable import PipelineTesting

@Suite struct TextDiffTests {
    @Test func showsOnlyTheChangedLinesAsRemovedAndAdded() {
        let diff = TextDiff.unified(expected: "{\n  \"a\": 1,\n  \"b\": 2\n}", actual: "{\n  \"a\": 1,\n  \"b\": 3\n}")
        #expect(diff == "  {\n    \"a\": 1,\n-   \"b\": 2\n+   \"b\": 3\n  }")
    }

    @Test func sameTextHasNoDiff() {
        #expect(TextDiff.unified(expected: "x\ny", actual: "x\ny").isEmpty)
    }
}
