import ArgumentParser
import Engine
import Foundation
import HubWire
import PipelineConfig
import PipelineCore
import PipelineTesting
import PushService
import RunFlow

/// `pushline validate PATH…`: checks pipeline files without contacting anything.
struct ValidateCommand: AsyncParsableCommand, EnvironmentFileCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check pipeline files and print compiler-style diagnostics. Contacts nothing.",
        discussion: """
            Accepts files and directories (every *.yaml and *.yml below them; service files and test files \
            are checked as what they are). Diagnostics go to standard \
            error; one status line per file goes to standard output. Unset ${env:…}/${file:…} references \
            are warnings here and errors for `pushline run`.

            A step written the way an earlier release accepted is read as it now is, with a warning that shows \
            the new form; --fix rewrites such steps in the files (only the words that changed, comments and \
            layout kept) and then checks the files again.

            EXAMPLES:
              pushline validate pipelines/
              pushline validate pipelines/daily-digest.yaml --format json
              pushline validate --fix pipelines/

            \(ExitStatus.help([
                .init("0", "no errors (warnings are allowed: unset references, for instance)"),
                .init("2", "at least one error, or a path that does not exist"),
            ]))
            """)

    @Argument(help: "Pipeline files or directories.")
    var paths: [String]

    @OptionGroup var settings: EnvironmentFileOption

    @Option(help: "Output format: text (diagnostics to stderr) or json (to stdout).")
    var format: OutputFormat = .text

    @Flag(help: "Rewrite what the diagnostics can fix (a step in a former spelling), then check again.")
    var fix = false

    func run() async throws {
        let console = Console.current
        var results: [FileDiagnostics] = []
        var files: [String] = []
        for path in paths {
            do {
                files += try PipelineFiles.expand([path])
            } catch let failure as CommandFailure where format == .json {
                // JSON mode writes JSON only: a path that is not there is one more error in the document.
                results.append(FileDiagnostics(file: path, diagnostics: [Diagnostic(.error, failure.message)]))
            }
        }
        if fix {
            for file in files { try await applyFixes(to: file, console: console) }
        }
        for file in files {
            // A service file (`pushline serve`) sits beside the pipelines and is checked as what it is.
            if let text = try? String(contentsOfFile: file, encoding: .utf8), PipelineLoader.isServiceFile(text: text) {
                let diagnostics = DiagnosticCollector()
                _ = await ServiceLoader.load(
                    path: file, purpose: .validate, environment: console.environment, diagnostics: diagnostics)
                results.append(FileDiagnostics(file: file, diagnostics: diagnostics.diagnostics))
                continue
            }
            // So is a test file (`pushline test`).
            if TestFiles.isTestFile(file) {
                let diagnostics = DiagnosticCollector()
                _ = TestFileDecoder.load(file, diagnostics: diagnostics)
                results.append(FileDiagnostics(file: file, diagnostics: diagnostics.diagnostics))
                continue
            }
            let loaded = await LoadedPipeline.load(file, purpose: .validate, console: console)
            results.append(FileDiagnostics(file: file, diagnostics: loaded.diagnostics))
        }
        let all = results.flatMap(\.diagnostics)
        switch format {
        case .text:
            for result in results {
                for diagnostic in result.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
                console.line("\(result.file): \(DiagnosticPrinter.summary(result.diagnostics))")
            }
        case .json:
            console.line(
                JSONText.encode(
                    ValidationOutput(
                        files: results, errors: all.filter { $0.severity == .error }.count,
                        warnings: all.filter { $0.severity == .warning }.count)))
        }
        if all.hasErrors { throw ExitStatus.exit(ExitStatus.invalidInput) }
    }
}

extension ValidateCommand {
    /// Rewrites `file` with the fixes its diagnostics carry and says what changed (to standard error, so JSON output
    /// stays JSON); a file already current is left untouched.
    private func applyFixes(to file: String, console: Console) async throws {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8), !PipelineLoader.isServiceFile(text: text)
        else { return }
        let loaded = await LoadedPipeline.load(file, purpose: .validate, console: console)
        let here = FilePath.resolve(file, against: FileManager.default.currentDirectoryPath)
        // A diagnostic's fixes are one change: made all together or not at all.
        let groups = loaded.diagnostics.compactMap { $0.fixes }
            .map {
                $0.filter {
                    FilePath.resolve($0.location.file, against: FileManager.default.currentDirectoryPath) == here
                }
            }
            .filter { !$0.isEmpty }
        let fixes = groups.flatMap { $0 }
        guard !fixes.isEmpty else { return }
        let (fixed, skippedGroups) = FixIt.apply(groups: groups, to: text)
        let skipped = skippedGroups.flatMap { $0 }
        do {
            try fixed.write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            throw CommandFailure("cannot write the fixed \(file): \(error.localizedDescription)")
        }
        let count = fixes.count - skipped.count
        console.err("\(file): fixed \(count) place\(count == 1 ? "" : "s")")
        for fix in skipped {
            console.err(
                "\(fix.location): note: not fixed: expected '\(fix.replacing)' there; fix it by hand: '\(fix.with)'")
        }
    }
}

/// Diagnostics of one file, for JSON output.
struct FileDiagnostics: Encodable {
    let file: String
    let diagnostics: [Diagnostic]
}

/// The whole `validate --format json` document.
struct ValidationOutput: Encodable {
    let files: [FileDiagnostics]
    let errors: Int
    let warnings: Int
}

/// Expands command-line paths into pipeline files.
enum PipelineFiles {
    static func expand(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandFailure("'\(path)' does not exist")
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let found = ((try? manager.subpathsOfDirectory(atPath: path)) ?? [])
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .sorted()
                .map { FilePath.resolve($0, against: path) }
            guard !found.isEmpty else { throw CommandFailure("no *.yaml or *.yml files in '\(path)'") }
            files += found
        }
        return files
    }
}
