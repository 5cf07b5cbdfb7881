import Foundation
import PipelineCore
import PluginProtocol
import PushlineLogging
import TestSupport
import Testing

@testable import PluginStep

/// The scripted plugin beside these tests, declared to behave as `mode` says.
func scripted(_ mode: String, environment: [String: String] = ["CRM_TOKEN": "s3cret-token"], timeout: Int64 = 120)
    throws -> PluginHost
{
    // This process hosts plugins as `pushline` does, which ignores SIGPIPE from its start: a plugin that exits before
    // reading is then an EPIPE the host reports, not the end of the test process.
    signal(SIGPIPE, SIG_IGN)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Plugins/scripted.py"
    ).path
    let python = try #require(pythonExecutable, "python3 is needed for the plugin tests")
    let declaration = PluginDeclaration(
        name: "crm", location: SourceLocation(file: "p.yaml", line: 3, column: 3), command: [python, script, mode],
        shownCommand: "python3 scripted.py \(mode)",
        commandLocation: SourceLocation(file: "p.yaml", line: 4, column: 14),
        environment: environment, timeout: timeout)
    var host = PluginHost(declaration: declaration, directory: FileManager.default.temporaryDirectory.path)
    // The suite starts with every other suite on two cores: a Python start and exit can take tens of seconds then.
    // The run's limit counts from the start too, so it is as wide, except where a test is about that limit.
    host.handshakeTimeout = .seconds(120)
    host.exitGrace = .seconds(60)
    return host
}

/// The interpreter itself, not a shim on PATH (pyenv's adds its own variables to the environment it is given).
let pythonExecutable: String? = {
    guard let python3 = onPath("python3") else { return nil }
    let process = Process()
    let pipe = Pipe()
    process.executableURL = URL(fileURLWithPath: python3)
    process.arguments = ["-c", "import sys; print(sys.executable)"]
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    let path = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
    return path.isEmpty ? python3 : path
}()

func onPath(_ program: String) -> String? {
    FilePath.executable(program, relativeTo: ".", searchPath: ProcessInfo.processInfo.environment["PATH"])
}

/// A context for a step run without a run store (rows go to a temporary file).
func context(dryRun: Bool = false) -> StepContext {
    .forTesting(dryRun: dryRun)
}

/// The plugin's step with `options`, built from what it describes.
func step(_ host: PluginHost, options: PluginValue = .object(["segment": .string("vip")])) async throws -> PluginStep {
    PluginStep(host: host, description: try await host.describe(), options: options)
}

/// What a step run failed with.
func failure(of step: PluginStep, dryRun: Bool = false) async -> StepFailure? {
    do {
        _ = try await step.run(in: context(dryRun: dryRun))
        return nil
    } catch let failure as StepFailure {
        return failure
    } catch {
        Issue.record("not a step failure: \(error)")
        return nil
    }
}
