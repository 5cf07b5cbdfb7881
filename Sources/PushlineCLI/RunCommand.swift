import ArgumentParser
import Foundation
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
        let session = PipelineSession.load(pipeline, purpose: .run, console: console)
        for diagnostic in session.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
        guard let built = session.pipeline else {
            console.errorLine("\(pipeline): not run: \(DiagnosticPrinter.summary(session.diagnostics))")
            throw ExitStatus.exit(ExitStatus.invalidInput)
        }
        guard let logger = PushlineLogging.logger(label: "pushline", level: logLevel) else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
        let engine = PipelineEngine(logger: logger, clock: console.clock)
        let result = await engine.run(built, dryRun: dryRun)
        switch format {
        case .text: console.out(TextReporter.format(result))
        case .json: console.line(JSONOutput.encode(result))
        }
        if let report {
            do {
                try Data((JSONOutput.encode(result) + "\n").utf8).write(to: URL(fileURLWithPath: report), options: .atomic)
            } catch {
                console.errorLine("error: cannot write the report to '\(report)': \(error.localizedDescription)")
                throw ExitStatus.exit(ExitStatus.failure)
            }
        }
        if result.status == .failed { throw ExitStatus.exit(ExitStatus.failure) }
    }
}
