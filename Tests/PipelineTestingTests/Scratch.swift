import Foundation
import TestSupport

/// A folder of a test's own holding the files it writes: a pipeline and its test file, say.
struct ScratchFolder {
    let path: String

    init() throws {
        path = TestScratch.root.appendingPathComponent("pipeline-testing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// A pipeline that sends `message` (a parameter) to audience `news` through template `alert`, as a native APNs
    /// notification.
    static func audiencePipeline(body: String = #"{"aps":{"alert":"$(message)"}}"#) -> String {
        """
        version: 1
        parameters:
          message: { default: Hello }
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: "${env:NH_HUB}" }
        templates:
          alert: { platform: apns, body: '\(body)' }
        steps:
          - id: notify
            send: { hub: main, format: apple, template: alert, audience: news, properties: { message: "${param:message}" } }

        """
    }

    /// A pipeline that sends one template notification per row of the file ROWS names, to tag `user:$(user)`.
    static let rowsPipeline = """
        version: 1
        hubs:
          main: { connection: "${env:NH_CONNECTION}", hub: "${env:NH_HUB}" }
        steps:
          - id: digest
            send: { hub: main, for-each: "${env:ROWS}", audience: "user:$(user)", properties: { message: "$(message)" } }

        """

    /// An installation with `tags`, as a test file writes it.
    static func device(_ id: String, tags: [String]) -> String {
        "- { installationId: \(id), platform: apns, pushChannel: \(String(repeating: "A", count: 64)), tags: [\(tags.joined(separator: ", "))] }"
    }
}
