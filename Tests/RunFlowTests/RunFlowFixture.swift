import Engine
import Foundation
import PipelineConfig
import PipelineCore
import PushlineLogging
import RunFlow
import Synchronization
import Testing

/// A scratch directory with one pipeline file that signs and renders offline (nothing to send), a console
/// that keeps what it was told, and a run store path inside the directory.
final class RunFlowFixture: Sendable {
    let directory: String
    let pipelinePath: String
    let storePath: String
    private let out = Mutex("")
    private let err = Mutex("")
    /// What the console's clock reads (epoch seconds): tests move it to the next night.
    let now = Mutex(1_795_320_720.0)

    /// The hub and template every fixture pipeline declares (a `name:` may come before it).
    static let declarations = """
        hubs:
          main:
            connection: "Endpoint=http://127.0.0.1:9/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=RunFlowTestKey0NotASecret00000000000000000000="
            hub: flow-hub
        templates:
          alert:
            platform: apns
            body: '{"aps":{"alert":"$(message)"}}'

        """

    static let pipeline =
        "version: 1\n" + declarations + """
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
        Console(
            out: { [self] text in out.withLock { $0 += text } }, err: { [self] text in err.withLock { $0 += text } },
            environment: ["HOME": directory],
            clock: WallClock { [self] in Date(timeIntervalSince1970: now.withLock { $0 }) },
            isTerminal: false)
    }

    /// Moves the clock on by `seconds`.
    func advance(_ seconds: Double) {
        now.withLock { $0 += seconds }
    }

    var printed: String { out.withLock { $0 } }
    var warned: String { err.withLock { $0 } }

    func load(parameters: [String: String] = [:]) async -> LoadedPipeline {
        await LoadedPipeline.load(pipelinePath, purpose: .run, console: console, parameters: parameters)
    }

    /// Runs the pipeline through the run flow as `pushline run` does (signals not watched): how it came out, and the
    /// report it finished with, if it ran.
    func run(dryRun: Bool = false, again: Bool = false) async throws -> (PipelineRun.Outcome, RunReport?) {
        let loaded = await load()
        let pipeline = try #require(loaded.pipeline, "\(loaded.diagnostics)")
        var flow = PipelineRun(store: storePath)
        flow.dryRun = dryRun
        flow.again = again
        flow.watchSignals = false
        let seen = Mutex<RunReport?>(nil)
        let outcome = try await flow.execute(pipeline, registry: loaded.registry, engine: engine, console: console) {
            report, _ in
            seen.withLock { $0 = report }
        }
        return (outcome, seen.withLock { $0 })
    }

    var engine: PipelineEngine {
        PipelineEngine(logger: PushlineLogging.logger(label: "RunFlowTests", level: "critical")!, clock: console.clock)
    }
}
