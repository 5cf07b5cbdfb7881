import Foundation
import PipelineCore
import RunFlow
import Synchronization

/// A scratch directory with one pipeline file that signs and renders offline (nothing to send), a console
/// that keeps what it was told, and a run store path inside the directory.
final class RunFlowFixture: Sendable {
    let directory: String
    let pipelinePath: String
    let storePath: String
    private let out = Mutex("")
    private let err = Mutex("")

    static let pipeline = """
        version: 1
        hubs:
          main:
            connection: "Endpoint=http://127.0.0.1:9/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=RunFlowTestKey0NotASecret00000000000000000000="
            hub: flow-hub
        templates:
          alert:
            platform: apns
            body: '{"aps":{"alert":"$(message)"}}'
        steps:
          - sign: { hub: main, lifetime: 20m }
          - render: { template: alert, properties: { message: "hello" } }

        """

    init(pipeline text: String = RunFlowFixture.pipeline) throws {
        directory = FileManager.default.temporaryDirectory.path + "/RunFlowTests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        pipelinePath = directory + "/flow.yaml"
        storePath = directory + "/state/journal.sqlite"
        try text.write(toFile: pipelinePath, atomically: true, encoding: .utf8)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    var console: Console {
        Console(out: { [self] text in out.withLock { $0 += text } }, err: { [self] text in err.withLock { $0 += text } },
                       environment: ["HOME": directory], clock: .fixed(Date(timeIntervalSince1970: 1_795_320_720)), isTerminal: false)
    }

    var printed: String { out.withLock { $0 } }
    var warned: String { err.withLock { $0 } }

    func load(parameters: [String: String] = [:]) async -> LoadedPipeline {
        await LoadedPipeline.load(pipelinePath, purpose: .run, console: console, parameters: parameters)
    }

    var engine: PipelineEngine {
        PipelineEngine(logger: PushlineLogging.logger(label: "RunFlowTests", level: "critical")!, clock: console.clock)
    }
}
