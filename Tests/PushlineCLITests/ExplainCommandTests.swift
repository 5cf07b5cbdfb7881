import CommandTestSupport
import Testing

@Suite struct ExplainCommandTests {
    @Test func explainsStructureAndLimits() async throws {
        let output = await CommandRunner.run(["explain", "(follows_RedSox || follows_Cardinals) && location_Boston"])
        #expect(output.status == 0)
        #expect(output.err == "")
        try CommandRunner.expectGolden(output.out, "explain-boston.txt")
    }

    @Test(arguments: [
        ("follows_RedSox,location_Boston", "match"),
        ("follows_Cardinals", "no match"),
        ("location_Boston, follows_Cardinals", "match"),
    ])
    func matchIsTheLastLine(tags: String, expected: String) async {
        let output = await CommandRunner.run([
            "explain", "(follows_RedSox || follows_Cardinals) && location_Boston", "--match", tags,
        ])
        #expect(output.status == 0)
        #expect(output.out.split(separator: "\n").last.map(String.init) == expected)
    }

    @Test func syntaxErrorShowsColumnAndExitsTwo() async throws {
        let output = await CommandRunner.run(["explain", "a && (b || c"])
        #expect(output.status == 2)
        #expect(output.out == "")
        #expect(output.err.hasPrefix("error: column "))
        #expect(output.err.contains("\n  a && (b || c\n"))
    }

    @Test func limitViolationExitsTwo() async {
        let output = await CommandRunner.run(["explain", "a && b && c && d && e && f && g"])
        #expect(output.status == 2)
        #expect(output.out.contains("tags: 7 of at most 6 (it uses && or !)"))
        #expect(output.out.contains("within NH limits: no: "))
    }

    @Test func twentyOrTagsAreFineTwentyOneAreNot() async {
        let twenty = (1...20).map { "t\($0)" }.joined(separator: " || ")
        #expect(await CommandRunner.run(["explain", twenty]).status == 0)
        #expect(await CommandRunner.run(["explain", twenty + " || t21"]).status == 2)
    }
}
