import ArgumentParser
import Foundation
import PipelineConfig
import RunFlow

/// `pushline init [DIR]`: a starter project that validates clean and dry-runs at once.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter project: a pipeline, a template, sample rows, an .env.example and the JSON Schema.",
        discussion: """
            Writes into DIR (default: the current directory) a pipeline with the schema modeline, the APNs template \
            it previews, sample rows it sends one notification per row of, an .env.example naming every variable \
            the pipeline reads, and the JSON Schema your editor completes keys from. It validates clean and \
            dry-runs at once with --env-file .env.example. Nothing is overwritten: when any of the files exists, \
            nothing is written.

            EXAMPLES:
              pushline init my-notifications
              pushline init .

            \(ExitStatus.help([.ok, .init("2", "a file it would write exists already, or DIR cannot be written; nothing was written")]))
            """)

    @Argument(help: "The directory to write into (made when missing).")
    var directory: String = "."

    func validate() throws {
        // An unset variable (`pushline init "$DIR"`) must not become the root directory.
        guard !directory.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("DIR is empty; give a directory, or . for this one")
        }
    }

    func run() async throws {
        let console = Console.current
        let files = StarterProject.files(
            schema: PipelineSchema(registry: Console.current.steps).json, testSchema: TestFileSchema.json)
        let existing = files.map(\.path).filter {
            FileManager.default.fileExists(atPath: FilePathJoin.join(directory, $0))
        }
        guard existing.isEmpty else {
            throw CommandFailure(
                "\(existing.map { "'\(FilePathJoin.join(directory, $0))'" }.joined(separator: ", ")) "
                    + "exist\(existing.count == 1 ? "s" : "") already; nothing was written (init never overwrites: choose another directory)"
            )
        }
        var written: [String] = []
        do {
            for file in files {
                let path = FilePathJoin.join(directory, file.path)
                // A file at the top of `.` has no folder to make (and "" is no path).
                let folder = (path as NSString).deletingLastPathComponent
                if !folder.isEmpty {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                }
                try Data(file.content.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
                written.append(path)
            }
        } catch {
            // All or nothing: what this run wrote before the failure goes again (never a file it did not write).
            for path in written { try? FileManager.default.removeItem(atPath: path) }
            throw CommandFailure(
                "cannot write the starter project into '\(directory)': \(error.localizedDescription); nothing was written"
            )
        }
        let command = Invocation.current(environment: console.environment)
        let width = files.map(\.path.count).max() ?? 0
        console.line("Wrote a Pushline project in \(directory):")
        for file in files { console.line("  \(file.path.padding(to: width))  \(file.purpose)") }
        console.line()
        console.line("Next:")
        if directory != "." { console.line("  cd \(directory)") }
        console.line("  \(command) validate pipelines/ --env-file .env.example")
        console.line("  \(command) test pipelines/")
        console.line("  \(command) run pipelines/digest.yaml --dry-run --env-file .env.example")
        console.line("  cp .env.example .env     # put your hub's connection string in .env; keep .env out of git")
        console.line("  \(command) run pipelines/digest.yaml --env-file .env")
    }
}
