import Engine
import Foundation
import HubExpressions
import HubWire
import PipelineCore
import PushlineLogging
import Synchronization
import TestSupport
import Testing

@testable import RegisterStep

let connection = try! ConnectionString(
    parsing:
        "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY="
)
let here = SourceLocation(file: "p.yaml", line: 1, column: 1)
let hub = HubDeclaration(name: "tutorial", location: here, connection: connection, hubName: "myhub", endpoint: nil)
let base = "https://contoso-nh.servicebus.windows.net/myhub/"
let apnsToken = "62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA"
let fcmToken = "dGVzdC10b2tlbi1mb3ItZmNt:APA91bH"

func declaration(
    _ name: String, _ platform: PushPlatform, _ body: String, headers: [String: String] = [:],
    tags: [String] = []
) -> TemplateDeclaration {
    TemplateDeclaration(
        name: name, location: here, platform: platform, body: try! CompiledTemplate(compiling: body),
        headers: headers, tags: tags)
}

let alert = declaration(
    "alert", .apns, #"{"aps":{"alert":"$(message)"}}"#, headers: ["apns-push-type": "alert"], tags: ["news"])
let fcmAlert = declaration("fcm-alert", .fcmv1, #"{"message":{"notification":{"body":"$(message)"}}}"#)

func document(directory: String = ".") -> PipelineDocument {
    PipelineDocument(file: "p.yaml", directory: directory, hubs: [hub], templates: [alert, fcmAlert])
}

// MARK: - Config trees

func scalar(_ text: String, _ line: Int = 1, _ column: Int = 1) -> ConfigNode {
    ConfigNode(.scalar(ConfigScalar(text: text)), at: SourceLocation(file: "p.yaml", line: line, column: column))
}

func list(_ items: [ConfigNode], _ line: Int = 1, _ column: Int = 1) -> ConfigNode {
    ConfigNode(.sequence(items), at: SourceLocation(file: "p.yaml", line: line, column: column))
}

func words(_ items: String...) -> ConfigNode { list(items.map { scalar($0) }) }

func mapping(_ pairs: [(String, ConfigNode)], _ line: Int = 1, _ column: Int = 1) -> ConfigNode {
    ConfigNode(
        .mapping(pairs.map { ConfigEntry(key: $0.0, keyLocation: $0.1.location, value: $0.1) }),
        at: SourceLocation(file: "p.yaml", line: line, column: column))
}

func build(_ pairs: [(String, ConfigNode)], directory: String = ".") -> (RegisterStep?, [Diagnostic]) {
    let collector = DiagnosticCollector()
    let context = BuildContext(document: document(directory: directory), loadDataFile: { _, _, _, _ in nil })
    // Built as the engine builds a step: its `for-each` rows opened for it.
    let step = StepKind(RegisterStep.self).build(mapping(pairs), in: context, diagnostics: collector)
    return (step as? RegisterStep, collector.diagnostics)
}

/// Builds and asserts there were no diagnostics.
func built(_ pairs: [(String, ConfigNode)], directory: String = ".") throws -> RegisterStep {
    let (step, diagnostics) = build(pairs, directory: directory)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    return try #require(step)
}

func context(_ transport: any HubTransport, dryRun: Bool = false, directory: String = ".") -> StepContext {
    .forTesting(
        document: document(directory: directory), transport: transport, dryRun: dryRun,
        clock: .fixed(Date(timeIntervalSince1970: 1_699_996_400)))
}

/// Runs the step, expecting it not to register every device: a failure (a device the hub refused), or
/// a partial result (malformed rows, counted bad, are never sent and do not fail the step: the run's
/// input check decides whether they stop it). Returns the message, lines and data either way.
func failure(of step: RegisterStep, in context: StepContext) async throws -> StepFailure {
    do {
        let result = try await step.run(in: context)
        guard result.items?.isPartial == true else {
            Issue.record("expected a failure or a partial result, got: \(result.summary)")
            throw CancellationError()
        }
        return StepFailure(result.summary, lines: result.lines, data: result.data)
    } catch let failure as StepFailure {
        return failure
    }
}

/// A scratch directory holding the given files.
func directory(with files: [String: String]) throws -> String {
    let url = TestScratch.root.appendingPathComponent("register-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (name, text) in files {
        try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return url.path
}

extension HubRequest {
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}

extension ReportValue {
    /// The `outcome` of each entry of an array of device results, by device.
    var outcomes: [String: String] {
        guard case .array(let items) = self else { return [:] }
        var result: [String: String] = [:]
        for case .object(let fields) in items {
            guard case .string(let device)? = fields.first(where: { $0.key == "device" })?.value,
                case .string(let outcome)? = fields.first(where: { $0.key == "outcome" })?.value
            else { continue }
            result[device] = outcome
        }
        return result
    }
}
