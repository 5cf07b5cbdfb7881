import PipelineConfig
import PipelineCore
import Testing

/// `--env-file`: dotenv as systemd's EnvironmentFile= reads it, every problem at file:line:column, no value
/// ever in a message.
@Suite struct EnvironmentFileTests {
    @Test func namesValuesQuotesCommentsAndExport() {
        let text = """
            \u{FEFF}# staging
            NH_CONNECTION="Endpoint=sb://staging.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=s3cr=t"
            export NH_HUB = staging-hub
            DIGEST_ROWS='/var/lib/digest/$DAY.csv'
            GREETING="line one\\nsays \\"hi\\" for \\$5"
            EMPTY=

              INDENTED=yes\r
            """
        let (values, problems) = EnvironmentFile.parse(text, file: "staging.env")
        #expect(problems.isEmpty)
        #expect(
            values == [
                "NH_CONNECTION":
                    "Endpoint=sb://staging.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=s3cr=t",
                "NH_HUB": "staging-hub", "DIGEST_ROWS": "/var/lib/digest/$DAY.csv",
                "GREETING": "line one\nsays \"hi\" for $5",
                "EMPTY": "", "INDENTED": "yes",
            ])
    }

    @Test func everyProblemHasItsLineAndColumnAndNoValue() {
        let text = """
            OK=1
            NH_CONNECTION="Endpoint=sb://x/;SharedAccessKey=supersecret
            9LIVES=cat
            just words
              KEY='open
            QUOTED="a"b
            """
        let (_, problems) = EnvironmentFile.parse(text, file: "prod.env")
        #expect(
            problems.map(\.description) == [
                "prod.env:2:15: error: the double quote that opens the value of NH_CONNECTION is not closed on this line",
                "prod.env:3:1: error: the text before '=' is not a variable name",
                "prod.env:4:1: error: this line is not NAME=value",
                "prod.env:5:7: error: the single quote that opens the value of KEY is not closed on this line",
                "prod.env:6:8: error: there is text after the closing quote of QUOTED's value",
            ])
        #expect(problems.allSatisfy { $0.hint != nil })
        // Neither a message nor a snippet holds a value: the snippet stops after the value's opening quote.
        #expect(!problems.map { $0.message + ($0.sourceLine ?? "") }.joined().contains("supersecret"))
        #expect(problems.map(\.sourceLine) == ["NH_CONNECTION=\"…", nil, nil, "  KEY='…", "QUOTED=\"…"])
    }

    @Test func windowsLineEndsAndTabsAfterExport() {
        let (values, problems) = EnvironmentFile.parse(
            "# production\r\nNH_HUB=prod-hub\r\nexport\tDIGEST_ROWS=/rows.csv\r\n", file: "win.env")
        #expect(problems.isEmpty)
        #expect(values == ["NH_HUB": "prod-hub", "DIGEST_ROWS": "/rows.csv"])
    }

    @Test func aPastedKeyIsNeverEchoed() {
        let key = "Tbfo8WlVo5p/rmsci4SoeY8xIhtQEm03JHytxQrVjAs="
        let (_, problems) = EnvironmentFile.parse(key + "\n", file: "leak.env")
        #expect(problems.count == 1)
        let shown = problems.map { $0.description + ($0.sourceLine ?? "") + ($0.hint ?? "") }.joined()
        #expect(!shown.contains("Tbfo8WlVo5p"))
    }

    @Test func aValueOverTheLimitIsALocatedErrorThatNeverShowsTheValue() {
        let huge =
            "  export NH_KEY=" + String(repeating: "k", count: EnvironmentFile.maxValueBytes + 1) + "\nNH_HUB=h\n"
        let (values, problems) = EnvironmentFile.parse("# keys\n" + huge, file: "big.env")
        #expect(problems.count == 1)
        let problem = try! #require(problems.first)
        #expect(problem.location == SourceLocation(file: "big.env", line: 2, column: 3))
        #expect(problem.message == "the value of NH_KEY is 65537 bytes; the limit is 65536 bytes")
        #expect(problem.sourceLine == "  export NH_KEY=…")
        #expect(values["NH_KEY"] == nil)
        // A value at the limit is fine.
        let atLimit = EnvironmentFile.parse(
            "V=" + String(repeating: "v", count: EnvironmentFile.maxValueBytes), file: "ok.env")
        #expect(atLimit.problems.isEmpty && atLimit.values["V"]?.count == EnvironmentFile.maxValueBytes)
    }
}
