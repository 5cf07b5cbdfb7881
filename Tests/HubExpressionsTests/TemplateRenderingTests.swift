import HubExpressions
import Testing

/// One render-and-lint path for the render step, send and `pushline render`: the same findings everywhere.
@Suite struct TemplateRenderingTests {
    @Test func payloadLintAndPropertyWarningsTogether() throws {
        let template = try CompiledTemplate(compiling: #"{"aps":{"alert":{"title":"$(title)","body":"$(message)"}}}"#)
        let fine = TemplateRendering(
            template, properties: TemplateProperties(["title": "Hi", "message": "there"]), byteLimit: 4096)
        #expect(fine.payload == #"{"aps":{"alert":{"title":"Hi","body":"there"}}}"#)
        #expect(fine.findings.isEmpty && fine.error == nil)

        let missing = TemplateRendering(
            template, properties: TemplateProperties(["title": "Hi", "Title": "Ho"]), byteLimit: 4096)
        #expect(missing.error == nil)
        #expect(
            missing.warnings.map(\.message) == [
                "property 'message' is used but not given; it renders as an empty string",
                "properties 'Title', 'title' differ only in letter case; NH matches names case-insensitively",
            ])

        let oversized = TemplateRendering(
            template, properties: TemplateProperties(["title": String(repeating: "x", count: 5000), "message": ""]),
            byteLimit: 4096, limitName: "apns")
        #expect(oversized.error?.message.contains("4096") == true)
    }
}
