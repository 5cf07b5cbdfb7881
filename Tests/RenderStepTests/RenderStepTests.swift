import Foundation
import HubExpressions
import HubWire
import PipelineCore
import PushlineLogging
import TestSupport
import Testing

@testable import RenderStep

private let at = SourceLocation(file: "p.yaml", line: 1, column: 1)

private func declaration(_ name: String, _ platform: PushPlatform, _ body: String) -> TemplateDeclaration {
    TemplateDeclaration(name: name, location: at, platform: platform, body: try! CompiledTemplate(compiling: body))
}

private let generic = declaration("genericTemplate", .apns, #"{"aps":{"alert":"$(message)"}}"#)
private let toast = declaration(
    "toast", .wns,
    #"<toast><visual><binding template="ToastText01"><text id="1">$(message)</text></binding></visual></toast>"#)
private let document = PipelineDocument(file: "p.yaml", directory: ".", templates: [generic, toast])

private func context() -> StepContext {
    .forTesting(document: document)
}

private func scalar(_ text: String, _ line: Int, _ column: Int) -> ConfigNode {
    ConfigNode(.scalar(ConfigScalar(text: text)), at: SourceLocation(file: "p.yaml", line: line, column: column))
}

private func mapping(_ pairs: [(String, ConfigNode)]) -> ConfigNode {
    ConfigNode(.mapping(pairs.map { ConfigEntry(key: $0.0, keyLocation: $0.1.location, value: $0.1) }), at: at)
}

private func build(_ node: ConfigNode, files: @escaping DataFileLoader = { _, _, _, _ in nil }) -> (
    RenderStep?, [Diagnostic]
) {
    let collector = DiagnosticCollector()
    let reader = OptionReader(
        node, specs: RenderStep.options, step: RenderStep.id, what: "render options", diagnostics: collector)
    return (RenderStep.build(reader, in: BuildContext(document: document, loadDataFile: files)), collector.diagnostics)
}

@Suite struct RenderStepTests {
    @Test func rendersTheSeedTutorialPayload() async throws {
        let (step, diagnostics) = build(
            mapping([
                ("template", scalar("genericTemplate", 2, 13)),
                ("properties", mapping([("message", scalar("Hello from Postman!", 3, 20))])),
            ]))
        #expect(diagnostics.isEmpty)
        let context = context()
        let result = try await #require(step).run(in: context)
        #expect(result.lines == [#"{"aps":{"alert":"Hello from Postman!"}}"#])
        #expect(result.summary == "rendered template 'genericTemplate' for APNs: 39 bytes of 4096")
        #expect(
            context.state.renderedPayload(forTemplate: "genericTemplate") == #"{"aps":{"alert":"Hello from Postman!"}}"#
        )
        #expect(
            result.outputs == [
                "payload": .string(#"{"aps":{"alert":"Hello from Postman!"}}"#), "bytes": .integer(39),
                "platform": .string("apns"),
            ])
        #expect(Set(result.outputs.keys) == Set(RenderStep.outputs.map(\.name)))
    }

    @Test func rendersXMLWithEntities() async throws {
        let step = RenderStep(
            template: toast, body: toast.body!, properties: TemplateProperties(["message": "Fish & <Chips>"]))
        let result = try await step.run(in: context())
        #expect(result.lines.first?.contains(#"<text id="1">Fish &amp; &lt;Chips&gt;</text>"#) == true)
    }

    @Test func oversizedPayloadFailsTheStepAndShowsIt() async throws {
        let step = RenderStep(
            template: generic, body: generic.body!,
            properties: TemplateProperties(["message": String(repeating: "x", count: 5000)]))
        do {
            _ = try await step.run(in: context())
            Issue.record("an APNs payload over 4096 bytes must fail")
        } catch let failure as StepFailure {
            #expect(failure.message == "template 'genericTemplate' renders an invalid APNs payload")
            #expect(failure.lines.last?.hasPrefix("error: ") == true)
            #expect(failure.lines.last?.contains("4096") == true)
            #expect(failure.lines.first?.count == 5020)
        }
    }

    @Test func readsPropertiesFromADataFile() async throws {
        let loader: DataFileLoader = { path, _, _, _ in
            path == "props.json" ? mapping([("message", scalar("from a file", 1, 13))]) : nil
        }
        let (step, diagnostics) = build(
            mapping([
                ("template", scalar("genericTemplate", 2, 13)), ("properties-file", scalar("props.json", 3, 22)),
            ]), files: loader)
        #expect(diagnostics.isEmpty)
        let result = try await #require(step).run(in: context())
        #expect(result.lines == [#"{"aps":{"alert":"from a file"}}"#])
    }

    @Test(
        "a property the template uses and nobody gives is an error, as `send` says it: the payload would carry it empty"
    )
    func missingPropertyIsAnError() async throws {
        let (step, diagnostics) = build(mapping([("template", scalar("genericTemplate", 2, 13))]))
        #expect(step == nil)
        #expect(diagnostics.map(\.severity) == [.error])
        #expect(
            diagnostics.first?.message
                == "template 'genericTemplate' uses property 'message', which is not given; the payload would carry it empty"
        )
    }
}

@Suite("Rendering for FCM v1: what Google would refuse fails before anything is sent")
struct FcmV1RenderTests {
    @Test("a rendered FCM v1 payload with a number in data, or the legacy shape, fails the step with where it goes")
    func fcmV1ShapeFailsTheStep() async throws {
        let numbers = declaration(
            "digest", .fcmv1, ##"{"message":{"data":{"count":"#(count)"},"android":{"ttl":"$(ttl)"}}}"##)
        let step = RenderStep(
            template: numbers, body: numbers.body!, properties: TemplateProperties(["count": "3", "ttl": "3600"]))
        let failure = await #expect(throws: StepFailure.self) { try await step.run(in: context()) }
        #expect(failure?.message == "template 'digest' renders an invalid FCM v1 payload")
        #expect(
            failure?.lines.contains(
                "error: message.data.count is a number; FCM v1 data holds only strings: write it as the string \"3\"")
                == true,
            "\(failure?.lines ?? [])")
        #expect(
            failure?.lines.contains(
                "error: message.android.ttl must be a string of seconds such as \"3.5s\", found \"3600\"") == true)

        let legacy = declaration("legacy", .fcmv1, #"{"data":{"m":"$(m)"}}"#)
        let refused = await #expect(throws: StepFailure.self) {
            try await RenderStep(template: legacy, body: legacy.body!, properties: TemplateProperties(["m": "hi"])).run(
                in: context())
        }
        #expect(refused?.lines.contains { $0.contains("this is the legacy FCM shape ('data' at the top)") } == true)
    }

    @Test("a well-formed FCM v1 payload renders with no finding")
    func wellFormed() async throws {
        let good = declaration(
            "digest", .fcmv1, ##"{"message":{"data":{"count":"$(count)"},"android":{"ttl":"{$(ttl) + 's'}"}}}"##)
        let result = try await RenderStep(
            template: good, body: good.body!, properties: TemplateProperties(["count": "3", "ttl": "3600"])
        ).run(in: context())
        #expect(result.lines == [#"{"message":{"data":{"count":"3"},"android":{"ttl":"3600s"}}}"#])
    }
}
