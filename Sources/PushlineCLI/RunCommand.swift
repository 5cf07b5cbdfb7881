import ArgumentParser
import Foundation
import HubHTTP
import PipelineCore

/// `pushline run PIPELINE`: builds every step, then runs them in order.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline: validate everything, then run the steps in order and print a report.",
        discussion: """
            Every step is decoded and checked before the first one runs; an invalid pipeline runs nothing. \
            With --dry-run everything is signed and rendered offline and nothing is sent.

            EXAMPLES:
              pushline run pipelines/seed-tutorial.yaml --dry-run
              pushline run pipelines/seed-tutorial.yaml --report run.json

            \(ExitStatus.helpText)
            """)

    @Argument(help: "The pipeline file.")
    var pipeline: String

    @Flag(help: "Sign and render offline, print what would be sent, send nothing.")
    var dryRun = false

    @Option(help: "Also write the JSON run report to this file.")
    var report: String?

    @Option(help: "Report format on standard output: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Log level for standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "warning"

    func validate() throws {
        guard PushlineLogging.levelNames.contains(logLevel) else {
            throw ValidationError("unknown log level '\(logLevel)'; use \(PushlineLogging.levelNames.joined(separator: ", "))")
        }
    }

    func run() async throws {
        let console = Console.current
        // A report that cannot be written is found out before anything runs, not after.
        if let report { try ReportFile.checkWritable(report) }
        let session = PipelineSession.load(pipeline, purpose: .run, console: console)
        for diagnostic in session.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
        guard let built = session.pipeline else {
            console.errorLine("\(pipeline): not run: \(DiagnosticPrinter.summary(session.diagnostics))")
            // Cron and CI read the JSON: an invalid pipeline is a report too.
            let invalid = JSONOutput.encode(InvalidRun(pipeline: pipeline, diagnostics: session.diagnostics))
            if format == .json { console.line(invalid) }
            if let report { try ReportFile.write(invalid, to: report, console: console) }
            throw ExitStatus.exit(ExitStatus.invalidInput)
        }
        guard let logger = PushlineLogging.logger(label: "pushline", level: logLevel) else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
        let engine = PipelineEngine(logger: logger, clock: console.clock)
        // One HTTP client per run (keep-alive across steps), closed when the run ends.
        let executor = dryRun ? nil : AsyncHTTPExecutor()
        let mode: PipelineEngine.Mode = executor.map { .live(RetryingTransport(executor: $0)) } ?? .dryRun
        let result = await engine.run(built, mode: mode)
        await executor?.shutdown()
        switch format {
        case .text: console.out(TextReporter.format(result))
        case .json: console.line(JSONOutput.encode(result))
        }
        if let report { try ReportFile.write(JSONOutput.encode(result), to: report, console: console) }
        if result.status == .failed { throw ExitStatus.exit(ExitStatus.failure) }
    }
}

/// The JSON printed for a pipeline that did not run because it is invalid.
struct InvalidRun: Encodable {
    let pipeline: String
    let status = "invalid"
    let diagnostics: [Diagnostic]
}

/// Writing `--report` files.
enum ReportFile {
    /// Fails with a usage error when the report path's directory is missing or the path is a directory.
    static func checkWritable(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure("--report '\(path)' is a directory; give a file path")
        }
        let directory = FilePath.directory(of: path)
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw CommandFailure("--report '\(path)': directory '\(directory)' does not exist or is not writable")
        }
    }

    /// Writes the report atomically; a failure here is reported but the run's outcome stands.
    static func write(_ json: String, to path: String, console: Console) throws {
        do {
            try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            console.errorLine("error: cannot write the report to '\(path)': \(error.localizedDescription)")
            throw ExitStatus.exit(ExitStatus.failure)
        }
    }
}
