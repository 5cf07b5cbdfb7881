import BuiltinSteps
import Engine
import Foundation
import PipelineConfig
import PipelineCore
import Testing

/// Every YAML example a step documents (in `--help`, the schema and the README) builds through the real
/// registry, in a pipeline that declares what the examples name and holds the files they read: a wrong
/// example fails here, not in a user's editor.
@Suite struct StepExampleTests {
    static let examples: [(step: String, yaml: String)] = BuiltinSteps.all.flatMap { type in
        type.examples.map { (type.id, $0) }
    }

    static let token = String(repeating: "62BCD3484834B7E2", count: 4)

    /// A project directory with every hub, template, audience and file the examples name.
    static func project() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("step-examples-\(UUID().uuidString)")
            .path
        let files = [
            "data/rows.csv": "userId,headline\nalice,Hi\n",
            "data/users.csv": "userId,token\nalice,fcm-token-1:APA91b\n",
            "data/devices.jsonl": #"{"installationId":"d1","platform":"apns","pushChannel":"\#(token)"}"# + "\n",
            "data/devices.csv": "installationId\nd1\n",
            "data/retired.csv": "installationId\nd2\n",
            "data/tokens.txt": token + "\n",
            "data/alert-properties.json": #"{"message":"Hi"}"#,
            // A SQLite file may be empty (a database with no tables); the query runs only in a run.
            "data/app.sqlite": "",
            "data/digest.sql": "select user_id from users where region = $1\n",
        ]
        for (path, content) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try content.write(toFile: full, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: root + "/pipelines", withIntermediateDirectories: true)
        return root
    }

    static let declarations = """
        version: 1
        hubs:
          sports: { connection: "${env:NH_CONNECTION}", hub: sports-hub }
          digest: { connection: "${env:NH_CONNECTION}", hub: digest-hub }
          tutorial: { connection: "${env:NH_CONNECTION}", hub: myhub }
        audiences:
          boston-fans: "(follows_RedSox || follows_Cardinals) && location_Boston"
        templates:
          alert: { platform: apns, body: '{"aps":{"alert":"$(message)"}}', headers: { apns-push-type: alert } }
          alert-fcm: { platform: fcmv1, body: '{"message":{"notification":{"body":"$(message)"}}}' }
          digest: { platform: fcmv1, body: '{"message":{"notification":{"body":"$(message)"}}}' }
        steps:

        """

    @Test func everyStepHasExamples() {
        for type in BuiltinSteps.all {
            #expect(type.examples.count >= 2, "\(type.id) documents fewer than two examples")
        }
    }

    @Test(arguments: examples.indices)
    func theExampleBuildsWithoutADiagnostic(index: Int) throws {
        let (step, yaml) = Self.examples[index]
        let root = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let indented = yaml.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
            separator: "\n")
        let path = root + "/pipelines/example.yaml"
        try (Self.declarations + indented + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let environment = sampleEnvironment.merging([
            "DIGEST_ROWS": root + "/data/rows.csv", "USERS": root + "/data/users.csv",
        ]) { $1 }
        let collector = DiagnosticCollector()
        let loader = PipelineLoader(options: LoaderOptions(purpose: .run, environment: environment))
        let document = try #require(
            loader.load(path: path, diagnostics: collector), "\(step) example \(index): \(collector.diagnostics)")
        let pipeline = BuiltinSteps.registry().build(document, diagnostics: collector) {
            path, name, reference, diagnostics in
            loader.loadDataFile(path: path, name: name, reference: reference, diagnostics: diagnostics)
        }
        #expect(collector.diagnostics.map(\.description) == [], "the \(step) example\n\(yaml)")
        // An example may first show the step it reads (an `outcomes` step's send): the step it documents comes last.
        #expect(pipeline?.steps.last?.id == step)
    }
}
