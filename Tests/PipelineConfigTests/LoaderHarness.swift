import Foundation
import PipelineCore

@testable import PipelineConfig

/// Writes files into a fresh temporary directory and loads pipelines from it; the directory goes when the
/// harness does (a suite holds it for the test's whole run).
final class LoaderHarness: Sendable {
    let directory: String

    init() {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("pushline-config-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let path = directory + "/" + name
        try? FileManager.default.createDirectory(
            atPath: FilePath.directory(of: path), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// Loads `name` and returns the document plus diagnostics with paths made relative to the directory.
    func load(
        _ name: String, purpose: LoaderOptions.Purpose = .validate, environment: [String: String] = [:],
        parameters: [String: String] = [:]
    ) -> (PipelineDocument?, [Diagnostic]) {
        let collector = DiagnosticCollector()
        var options = LoaderOptions(purpose: purpose, environment: environment)
        options.parameters = parameters
        let loader = PipelineLoader(options: options)
        let document = loader.load(path: directory + "/" + name, diagnostics: collector)
        let relative = collector.diagnostics.map { diagnostic -> Diagnostic in
            var copy = diagnostic
            copy.location?.file = diagnostic.location?.file.replacingOccurrences(of: directory + "/", with: "") ?? ""
            return copy
        }
        return (document, relative)
    }

    /// `file:line:col: severity: message` lines, the form compared in most tests.
    func headlines(
        _ name: String, purpose: LoaderOptions.Purpose = .validate, environment: [String: String] = [:],
        parameters: [String: String] = [:]
    ) -> [String] {
        load(name, purpose: purpose, environment: environment, parameters: parameters).1.map(\.description)
    }
}

/// A small valid pipeline to start tests from.
let validPipeline = """
    version: 1
    description: test
    hubs:
      sports:
        connection: ${env:NH_CONNECTION}
        hub: sports-hub
    audiences:
      fans: "(a || b) && c"
    templates:
      alert:
        platform: apns
        body: '{"aps":{"alert":"$(message)"}}'
    steps:
      - sign: { hub: sports }
    """

let sampleConnection =
    "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY="
