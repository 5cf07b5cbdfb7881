import Engine
import Foundation
import HubExpressions
import HubWire
import PipelineCore
import PushlineLogging
import RunStore
import Synchronization
import TestSupport
import Testing

@testable import SendStep

let at = SourceLocation(file: "p.yaml", line: 1, column: 1)
let connection = try! ConnectionString(
    parsing: "Endpoint=http://127.0.0.1:8080/;SharedAccessKeyName=Full;SharedAccessKey=secret-key-value")
let hub = HubDeclaration(name: "sports", location: at, connection: connection, hubName: "myhub", endpoint: nil)
let alert = TemplateDeclaration(
    name: "alert", location: at, platform: .apns,
    body: try! CompiledTemplate(compiling: #"{"aps":{"alert":"$(message)"}}"#), headers: ["apns-push-type": "alert"])
let document = PipelineDocument(
    file: "p.yaml", directory: ".", hubs: [hub],
    audiences: [AudienceDeclaration(name: "fans", location: at, expression: try! TagExpression(parsing: "a || b"))],
    templates: [alert])

func node(_ value: Any, _ column: Int = 10) -> ConfigNode {
    let location = SourceLocation(file: "p.yaml", line: 2, column: column)
    switch value {
    case let text as String: return ConfigNode(.scalar(ConfigScalar(text: text)), at: location)
    case let list as [String]: return ConfigNode(.sequence(list.map { node($0) }), at: location)
    case let map as [(String, Any)]:
        return ConfigNode(
            .mapping(map.map { ConfigEntry(key: $0.0, keyLocation: location, value: node($0.1)) }), at: location)
    default: fatalError("unsupported")
    }
}

/// Builds the step and returns every diagnostic.
func diagnostics(_ pairs: [(String, Any)]) -> (SendStep?, [Diagnostic]) {
    diagnostics(SendStep.self, pairs)
}

/// A step of `type` built from `pairs`, and what building it reported.
func diagnostics<S: Step>(_ type: S.Type, _ pairs: [(String, Any)]) -> (S?, [Diagnostic]) {
    let collector = DiagnosticCollector()
    // Built as the engine builds a step: its `for-each` rows opened for it.
    let step = StepKind(S.self).build(
        node(pairs), in: BuildContext(document: document, loadDataFile: { _, _, _, _ in nil }), diagnostics: collector)
    return (step as? S, collector.diagnostics)
}

/// Builds the step and returns the errors' messages.
func build(_ pairs: [(String, Any)]) -> (SendStep?, [String]) {
    let (step, found) = diagnostics(pairs)
    return (step, found.filter { $0.severity == .error }.map(\.message))
}

/// A new temporary file holding `text`, named `<prefix>-<uuid>.<ext>`.
func temporaryFile(_ text: String, prefix: String, ext: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString).\(ext)")
        .path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

func run(
    _ step: some RunnableStep, transport: any HubTransport, dryRun: Bool = false, batch: BatchControl = BatchControl(),
    earlier: EarlierOutputs = EarlierOutputs()
) async throws -> StepResult {
    var context = StepContext(
        logger: PushlineLogging.logger(label: "t", level: "critical")!,
        clock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)),
        document: document, state: RunState(), isDryRun: dryRun, transport: transport, batch: batch)
    context.earlierOutputs = earlier
    return try await step.run(in: context)
}

@Suite struct SendStepBuildTests {
    @Test func targetIsRequiredAndExclusive() {
        #expect(build([("hub", "sports")]).1 == ["a send needs a target"])
        #expect(
            build([("hub", "sports"), ("audience", "fans"), ("broadcast", "true")]).1
                == ["give only one of 'audience', 'broadcast: true', 'direct' and 'direct-file'"])
        #expect(build([("hub", "sports"), ("broadcast", "false")]).1 == ["a send needs a target"])
    }

    @Test("a misspelled target is one error, at its own key: no follow-on 'needs a target' about another line")
    func misspelledTargetIsOneError() {
        #expect(
            build([("hub", "sports"), ("audiance", "fans")]).1 == ["unknown key 'audiance'; did you mean 'audience'?"])
    }

    @Test func inlineAudienceIsCheckedAgainstNHLimits() {
        let (step, errors) = build([("hub", "sports"), ("audience", "a && b && c && d && e && f && g")])
        #expect(step == nil)
        #expect(
            errors.first?.hasPrefix(
                "'audience' is neither a declared audience nor a valid tag expression: expression has 7 tags") == true)
        let collector = DiagnosticCollector()
        let reader = OptionReader(
            node([("hub", "sports"), ("audience", "fnas")]), specs: SendStep.options, step: "send", what: "send",
            diagnostics: collector)
        #expect(
            SendStep.build(reader, in: BuildContext(document: document, loadDataFile: { _, _, _, _ in nil })) != nil)
        #expect(
            collector.diagnostics.map(\.message) == [
                "'fnas' is not a declared audience, so it is sent as a tag; did you mean the audience 'fans'?"
            ])
    }

    @Test func formatAndTemplateMustAgree() {
        #expect(
            build([("hub", "sports"), ("format", "apple"), ("audience", "fans")]).1
                == ["a native send needs `template:`, the pipeline template rendered into the payload"])
        let message: (String, Any) = ("properties", [("message", "hi")])
        #expect(
            build([("hub", "sports"), ("format", "fcmv1"), ("template", "alert"), ("audience", "fans"), message]).1
                == ["template 'alert' is for APNs, which sends as 'apple', not 'fcmv1'"])
        #expect(
            build([("hub", "sports"), ("template", "alert"), ("audience", "fans"), message]).1
                == ["'template' is for native formats; a template send uses the templates devices registered"])
        #expect(
            build([("hub", "sports"), ("direct", "AB12")]).1
                == ["direct sends need a native format; NH renders templates only for registered devices"])
    }

    @Test func scheduleShapes() {
        #expect(build([("hub", "sports"), ("broadcast", "true"), ("schedule", "in 2h")]).0?.schedule == .after(7200))
        #expect(
            build([("hub", "sports"), ("broadcast", "true"), ("schedule", "2023-11-15T08:00:00Z")]).0?.schedule
                == .at(1_700_035_200))
        #expect(
            build([("hub", "sports"), ("broadcast", "true"), ("schedule", "in 8d")]).1 == [
                "'schedule' delay must be a duration from 1s to 7d, e.g. in 2h"
            ])
        #expect(
            build([("hub", "sports"), ("broadcast", "true"), ("schedule", "tomorrow")]).1
                == ["'schedule' must be a UTC time like 2026-11-23T08:00:00Z or a delay like in 2h"])
        #expect(
            build([("hub", "sports"), ("broadcast", "true"), ("schedule", "in 1h"), ("test", "true")]).1 == [
                "a test send cannot be scheduled"
            ])
    }
}

@Suite struct SendStepRunTests {
    @Test func templateSendToADeclaredAudience() async throws {
        let step = try #require(
            build([("hub", "sports"), ("audience", "fans"), ("properties", [("message", "Hi \"you\"")])]).0)
        let transport = ScriptedTransport()
        let result = try await run(step, transport: transport)
        let request = try #require(transport.requests.first)
        #expect(request.url == "http://127.0.0.1:8080/myhub/messages?api-version=2020-06")
        #expect(request.header("ServiceBusNotification-Format") == "template")
        #expect(request.header("ServiceBusNotification-Tags") == "a || b")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"message":"Hi \"you\""}"#)
        #expect(result.summary == "sent a template notification to audience 'fans' on hub 'sports': notification n1")
    }

    @Test("a scheduled send's summary says when it goes out")
    func scheduledSendSaysWhen() async throws {
        let step = try #require(
            build([
                ("hub", "sports"), ("audience", "fans"), ("properties", [("message", "later")]), ("schedule", "in 2h"),
            ]).0)
        let result = try await run(step, transport: ScriptedTransport())
        // The clock stands at 2023-11-14T22:13:20Z: two hours on.
        #expect(result.summary.hasSuffix("; scheduled: it goes out at 2023-11-15T00:13:20 UTC"), "\(result.summary)")
    }

    @Test func aHeaderThatCannotBeWrittenIsRefusedBeforeAnythingIsSent() {
        let (step, errors) = build([
            ("hub", "sports"), ("format", "apple"), ("template", "alert"), ("audience", "username:alice"),
            ("headers", [("apns-collapse-id", "a\nX-Injected: 1")]), ("properties", [("message", "Hello")]),
        ])
        #expect(step == nil)
        #expect(errors == ["the value of header apns-collapse-id holds a line break, which a header cannot carry"])
    }

    @Test func nativeSendRendersLocallyAndMergesHeaders() async throws {
        let step = try #require(
            build([
                ("hub", "sports"), ("format", "apple"), ("template", "alert"), ("audience", "username:alice"),
                ("headers", [("apns-priority", "10")]), ("properties", [("message", "Hello")]),
            ]).0)
        let transport = ScriptedTransport()
        _ = try await run(step, transport: transport)
        let request = try #require(transport.requests.first)
        #expect(request.header("ServiceBusNotification-Format") == "apple")
        #expect(request.header("apns-push-type") == "alert")
        #expect(request.header("apns-priority") == "10")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"aps":{"alert":"Hello"}}"#)
    }

    @Test func directListsGoOutInBatchesOfAThousand() async throws {
        let handles = (0..<2500).map { String(format: "%064X", $0) }
        let step = SendStep(
            hub: hub, format: "apple", target: .direct(handles), template: alert, properties: ["message": "x"])
        let transport = ScriptedTransport()
        let result = try await run(step, transport: transport)
        #expect(
            transport.requests.map(\.url)
                == Array(repeating: "http://127.0.0.1:8080/myhub/messages/$batch?api-version=2020-06&direct", count: 3))
        #expect(result.summary == "sent an apple notification to 2500 devices on hub 'sports': notification n1, n2, n3")
    }

    @Test func scheduledDelayBecomesAScheduleTime() async throws {
        let step = try #require(
            build([("hub", "sports"), ("broadcast", "true"), ("schedule", "in 2h"), ("properties", [("m", "x")])]).0)
        let transport = ScriptedTransport()
        _ = try await run(step, transport: transport)
        let request = try #require(transport.requests.first)
        #expect(request.url == "http://127.0.0.1:8080/myhub/schedulednotifications?api-version=2020-06")
        #expect(request.header("ServiceBusNotification-ScheduleTime") == "2023-11-15T00:13:20")
        #expect(request.header("ServiceBusNotification-Tags") == nil)
    }

    @Test func dryRunShowsTheRequestWithoutTheSignature() async throws {
        let step = try #require(
            build([("hub", "sports"), ("audience", "fans"), ("properties", [("message", "Hi")])]).0)
        let result = try await run(step, transport: ScriptedTransport(), dryRun: true)
        #expect(
            result.summary
                == "would send a template notification to audience 'fans' on hub 'sports' (1 request, nothing sent)")
        let text = result.lines.joined(separator: "\n")
        #expect(text.contains("POST http://127.0.0.1:8080/myhub/messages?api-version=2020-06"))
        #expect(text.contains("&sig=<redacted>&"))
        #expect(!text.contains("secret-key-value"))
    }

    @Test func hubFailuresSayWhatToDo() async throws {
        let step = try #require(build([("hub", "sports"), ("audience", "fans")]).0)
        let transport = ScriptedTransport([HubResponse(status: 403)])
        do {
            _ = try await run(step, transport: transport)
            Issue.record("a 403 must fail the step")
        } catch let failure as StepFailure {
            #expect(
                failure.message
                    == "hub 'sports': send to 'a || b': the key lacks the Send right (a Listen-only key cannot send)")
            #expect(failure.hint != nil)
        }
    }
}
