import ArgumentParser
import CommandTestSupport
import Foundation
import PipelineConfig
import PipelineCore
import Testing

@testable import PushlineCLI

/// Every crontab line the guides and the example pipelines' descriptions show works under cron's empty environment,
/// as the batch guide's "From cron or systemd" advises: the binary named by its installed path (cron's `PATH` is
/// short), the journal pinned (there may be no `HOME`, or another user's), the variables the pipeline reads given
/// with `--env-file`, a `--report` and `--metrics` for monitoring, and a `pushline run …` the real parser accepts.
@Suite struct CrontabLineTests {
    /// A crontab line found in the repository.
    struct Entry: CustomStringConvertible {
        /// The file it is in, relative to the repository: a pipeline it runs may be shown there too.
        let file: String
        /// `file:line`, for messages.
        let place: String
        /// The whole line, without the indentation around it.
        let line: String
        /// What cron runs: the line after its five time fields.
        let command: String
        var description: String { place }
    }

    /// Five time fields, then a command that runs `pushline run`.
    static var entryPattern: Regex<(Substring, Substring)> { /^\s*(?:[0-9*\/,\-]+\s+){5}(\S.*pushline run .*)$/ }

    /// The crontab lines of `text`, the contents of `file`.
    static func entries(in text: String, file: String) -> [Entry] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            guard let match = try? entryPattern.wholeMatch(in: line) else { return nil }
            return Entry(
                file: file, place: "\(file):\(index + 1)", line: line.trimmingCharacters(in: .whitespaces),
                command: String(match.output.1))
        }
    }

    /// Every crontab line of the example pipelines and the guides (docs/ and its subfolders).
    static func all() -> [Entry] {
        let files = FileManager.default
        let pipelines = ((try? files.contentsOfDirectory(atPath: CommandRunner.root + "/pipelines")) ?? [])
            .filter { $0.hasSuffix(".yaml") }.map { "pipelines/" + $0 }
        let pages = (files.enumerator(atPath: CommandRunner.root + "/docs")?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return (pipelines + pages).sorted().flatMap { entries(in: MarkdownBlocks.text(of: $0), file: $0) }
    }

    /// The `pushline run …` of `command`: the variables set before it, the binary as written, and its arguments
    /// (from `run` on).
    static func invocation(_ command: String) -> (assignments: [String], binary: String, arguments: [String])? {
        // A shell substitution is one word to the command (`$(date +\%F)`): spaces inside it separate nothing.
        let command = command.replacingOccurrences(of: #"\$\([^)]*\)"#, with: "X", options: .regularExpression)
        guard let segment = command.split(separator: /&&|;/).last(where: { $0.contains("pushline run ") }) else {
            return nil
        }
        let words = segment.split(separator: " ").map(String.init)
        guard
            let index = words.indices.dropLast().first(where: {
                words[$0].hasSuffix("pushline") && words[$0 + 1] == "run"
            })
        else { return nil }
        return (Array(words[..<index]), words[index], Array(words[(index + 1)...]))
    }

    /// The text of the pipeline a crontab line in `file` runs as `path`: an example pipeline of the same name, or
    /// the pipeline `file` itself shows (a guide's ```yaml block whose `name:` is the file's name). Looked up by name
    /// only, so nothing outside the repository is read whatever the line says.
    static func pipeline(_ path: String, shownIn file: String) -> String? {
        let name = (path as NSString).lastPathComponent
        let example = MarkdownBlocks.text(of: "pipelines/" + name)
        if !example.isEmpty { return example }
        let stem = (name as NSString).deletingPathExtension
        return MarkdownBlocks.blocks(of: MarkdownBlocks.text(of: file), marker: "readme-test")
            .first { $0.language == "yaml" && $0.lines.contains("name: \(stem)") }?.lines.joined(separator: "\n")
    }

    @Test("every crontab line names the installed binary, pins the journal, writes a report and metrics, and parses")
    func crontabLinesWorkUnderCron() throws {
        let entries = Self.all()
        // The guide's tested line, the outbox's, and the two example pipelines'.
        #expect(entries.count >= 4, "\(entries)")
        for entry in entries {
            guard let (assignments, binary, arguments) = Self.invocation(entry.command) else {
                Issue.record("\(entry.place): no `pushline run` in `\(entry.command)`")
                continue
            }
            let parsed: any ParsableCommand
            do {
                parsed = try PushlineCommand.parseAsRoot(arguments)
            } catch {
                let message = PushlineCommand.fullMessage(for: error)
                Issue.record(
                    "\(entry.place): `pushline \(arguments.joined(separator: " "))` does not parse: \(message)")
                continue
            }
            let run = try #require(parsed as? RunCommand, "\(entry.place): not a `pushline run`")
            #expect(
                binary.hasPrefix("/"),
                "\(entry.place): cron's PATH is short: name the binary by its installed path, not '\(binary)'")
            #expect(
                assignments.contains { $0.hasPrefix("PUSHLINE_JOURNAL=") } || run.store.journal != nil,
                "\(entry.place): cron's environment may have no HOME: pin the journal")
            #expect(run.report != nil, "\(entry.place): no --report")
            #expect(run.metrics != nil, "\(entry.place): no --metrics")
            let text = try #require(
                Self.pipeline(run.pipeline, shownIn: entry.file),
                "\(entry.place): the pipeline '\(run.pipeline)' it runs is neither an example nor shown in \(entry.file)"
            )
            if text.contains("${env:") {
                #expect(
                    run.environmentFile != nil,
                    "\(entry.place): '\(run.pipeline)' reads ${env:} variables, which cron's empty environment lacks: give --env-file"
                )
            }
        }
    }

    @Test("a crontab line in a pipeline's description stays one line of it, as written")
    func descriptionsKeepTheLineWhole() throws {
        let entries = Self.all().filter { $0.file.hasPrefix("pipelines/") }
        #expect(entries.count >= 2, "\(entries)")
        for entry in entries {
            let loader = PipelineLoader(options: LoaderOptions(purpose: .validate, environment: [:]))
            let document = try #require(
                loader.load(path: CommandRunner.root + "/" + entry.file, diagnostics: DiagnosticCollector()),
                "\(entry.place)")
            // A folded block (`>`) joins prose lines with spaces; only a line indented deeper than the prose is kept
            // as written, so a line at the prose's indentation would run into the sentence before it.
            let lines = (document.description ?? "").split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            #expect(
                lines.contains(entry.line),
                "\(entry.place): the description does not keep the crontab line whole: indent it deeper than the prose")
        }
    }
}
