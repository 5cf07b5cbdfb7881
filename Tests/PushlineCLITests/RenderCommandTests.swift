import CommandTestSupport
import Testing

@Suite struct RenderCommandTests {
    @Test func rendersATemplateFileToStdoutAlone() async throws {
        let output = await CommandRunner.run([
            "render", "--file", "templates/alert.apns.json", "--properties",
            #"{"title":"Red Sox win!","message":"4–2 in the ninth","badge":3,"topic":"redsox","articleId":"a/1"}"#,
        ])
        #expect(output.status == 0)
        #expect(output.err == "")
        try CommandRunner.expectGolden(output.out, "render-alert.apns.json")
    }

    @Test func rendersXMLAndWarnsAboutMissingProperties() async throws {
        let output = await CommandRunner.run([
            "render", "--file", "templates/toast.wns.xml", "--properties", #"{"title":"Fish & Chips"}"#,
        ])
        #expect(output.status == 0)
        try CommandRunner.expectGolden(output.out, "render-toast.wns.xml")
        #expect(
            output.err == """
                warning: template 'templates/toast.wns.xml': property 'articleId' is used but not given; it renders as an empty string
                warning: template 'templates/toast.wns.xml': property 'message' is used but not given; it renders as an empty string

                """)
    }

    @Test func rendersADeclaredTemplate() async {
        let output = await CommandRunner.run([
            "render", "pipelines/seed-tutorial.yaml", "--template", "genericTemplate",
            "--properties", #"{"message":"Hello from Postman!"}"#,
        ])
        #expect(output == CommandOutput(out: "{\"aps\":{\"alert\":\"Hello from Postman!\"}}\n", err: "", status: 0))
    }

    @Test func syntaxErrorPointsIntoTheTemplateFile() async throws {
        let output = await CommandRunner.run(["render", "--file", "Tests/PushlineCLITests/Inputs/bad.apns.json"])
        #expect(output.status == 2)
        #expect(output.out == "")
        try CommandRunner.expectGolden(output.err, "render-bad.err.txt")
    }

    @Test func oversizedPayloadIsALintErrorWithThePlatformLimit() async {
        let long = String(repeating: "x", count: 4100)
        let output = await CommandRunner.run([
            "render", "pipelines/seed-tutorial.yaml", "--template", "genericTemplate",
            "--properties", "{\"message\":\"\(long)\"}",
        ])
        #expect(output.status == 2)
        #expect(output.out.hasPrefix("{\"aps\":{\"alert\":\"xxx"))
        #expect(output.err.contains("error: template 'genericTemplate': "))
        #expect(output.err.contains("4096"))
    }

    @Test func usageMistakesExitTwo() async {
        #expect(await CommandRunner.run(["render"]).status == 2)
        #expect(
            await CommandRunner.run(["render", "--file", "templates/alert.apns.json", "--properties", "[1]"]).status
                == 2)
        #expect(
            await CommandRunner.run([
                "render", "--file", "templates/alert.apns.json", "--properties", #"{"a":{"b":1}}"#,
            ]).status == 2)
        #expect(
            await CommandRunner.run(["render", "pipelines/seed-tutorial.yaml", "--template", "generic"]).err
                .contains("declares no template 'generic'"))
    }
}
