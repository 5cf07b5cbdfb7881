import ArgumentParser
import Foundation
import PipelineCore
import PipelineTesting
import RunFlow

/// `pushline test [PATH…]`: runs the test cases beside pipelines, each against an emulator in this process.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run pipeline tests: each case against its own emulator in this process, offline.",
        discussion: """
            A test file sits beside the pipeline it tests (nightly.test.yaml for nightly.yaml, or any .yaml in \
            a nightly.tests/ folder). Each case gives the devices the hub holds, the rows, parameters, \
            environment and time of one run or several, and what each run must come to: what every device \
            received, that a device or audience received nothing, counts, the exit code, step outputs, or the \
            diagnostics `validate` gives. See docs/testing-pipelines.md.

            Every case runs on a fresh emulator inside this process (no port, no network: every hub the \
            pipeline declares is pointed at it, and NH_CONNECTION and NH_HUB name it) and a scratch journal, \
            as `pushline run` would run it; cases run in parallel (--jobs). A run sees none of this \
            environment but PATH, HOME and TMPDIR, plus the case's `env:`.

            A case with `snapshot: true` keeps what its runs sent and what each device received in a snapshot \
            file beside the test file (nightly.test.snapshot); later runs compare with it and show a diff. A \
            missing snapshot is written, except under --ci or when CI is set, where it fails the case; --update \
            writes the snapshots of the selected cases anew.

            PATH may be a test file, a pipeline (its tests are run) or a folder (every test file below it; \
            default: the current folder). Under GitHub Actions (GITHUB_ACTIONS=true) each failure is also \
            printed as an annotation at its line of the test file.

            EXAMPLES:
              pushline test
              pushline test pipelines/
              pushline test pipelines/daily-digest.yaml --run 'bad row'
              pushline test --format junit > test-results.xml
              pushline test pipelines/ --junit-xml test-results.xml
              pushline test pipelines/daily-digest.yaml --update

            \(ExitStatus.help([
                .init("0", "every case passed"),
                .init("1", "a case failed (each failure is shown with the line of its expectation)"),
                .init("2", "a test file is invalid, a path does not exist, or no case was selected (see --allow-empty)"),
            ]))
            """)

    /// What the report on standard output looks like.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit, tap
    }

    @Argument(help: "Test files, pipelines (their tests) or folders (every test file below them).")
    var paths: [String] = ["."]

    @Option(
        name: .customLong("run"),
        help: ArgumentHelp("Run only the cases whose name matches this regular expression.", valueName: "regex"))
    var filter: String?

    @Flag(help: "Succeed when no case is selected (by default that is an error: a filter that matches nothing).")
    var allowEmpty = false

    @Option(help: "Report format on standard output: text, json, junit (JUnit XML) or tap.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Also write the results as JUnit XML to this file.", valueName: "file"))
    var junitXml: String?

    @Option(help: "Most cases run at once (default: the number of processors).")
    var jobs: Int?

    @Flag(help: "Write the snapshot of every selected case that keeps one (snapshot: true), instead of comparing.")
    var update = false

    @Flag(
        help:
            "Fail a case whose snapshot is missing instead of writing it (the default when the CI environment variable is set)."
    )
    var ci = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
        if let filter, (try? Regex(filter)) == nil {
            throw ValidationError("--run '\(filter)' is not a regular expression")
        }
    }

    func run() async throws {
        let console = Console.current
        let started = ContinuousClock.now
        let (files, problems) = TestFiles.find(paths)
        for problem in problems { console.errorLine("pushline test: \(problem)") }
        var loadedFiles: [PipelineTestFile] = []
        let diagnostics = DiagnosticCollector()
        for file in files {
            if let loaded = TestFileDecoder.load(file, diagnostics: diagnostics) { loadedFiles.append(loaded) }
        }
        for diagnostic in diagnostics.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
        // Nothing runs until every test file reads: a typo in one must not pass as "fewer tests".
        guard problems.isEmpty, !diagnostics.hasErrors else {
            console.errorLine("pushline test: not run: \(DiagnosticPrinter.summary(diagnostics.diagnostics))")
            throw ExitStatus.exit(ExitStatus.invalidInput)
        }
        let pattern = try filter.map { try Regex($0) }
        let selected = loadedFiles.flatMap { file in
            file.cases.filter { testCase in pattern.map { testCase.name.contains($0) } ?? true }.map { (file, $0) }
        }
        guard !selected.isEmpty || allowEmpty else {
            let total = loadedFiles.map(\.cases.count).reduce(0, +)
            console.errorLine(
                "pushline test: no case selected"
                    + (filter.map {
                        ": --run '\($0)' matches none of \(total) case\(total == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s")"
                    }
                        ?? ": no test file under \(paths.joined(separator: ", "))")
                    + " (--allow-empty to permit)")
            throw ExitStatus.exit(ExitStatus.invalidInput)
        }
        let runner = TestRunner(
            steps: console.steps, environment: console.environment,
            parallelism: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let ran = await runner.run(selected)
        let ci = self.ci || !(console.environment["CI"] ?? "").isEmpty
        let snapshots = Snapshots.reconcile(ran, update: update, ci: ci)
        for note in snapshots.notes { console.errorLine("pushline test: \(note)") }
        let results = snapshots.results
        let elapsed = started.duration(to: .now)
        let report = TestReport(
            results: results,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        switch format {
        case .text: console.out(report.text)
        case .json: console.out(report.json)
        case .junit: console.out(report.junit)
        case .tap: console.out(report.tap)
        }
        if console.environment["GITHUB_ACTIONS"] == "true" { console.out(report.githubAnnotations) }
        if let junitXml {
            do { try report.junit.write(toFile: junitXml, atomically: true, encoding: .utf8) } catch {
                throw CommandFailure("cannot write '\(junitXml)': \(error.localizedDescription)")
            }
        }
        if report.failed > 0 { throw ExitStatus.exit(ExitStatus.failure) }
    }
}
