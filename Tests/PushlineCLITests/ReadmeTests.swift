import ArgumentParser
import CommandTestSupport
import Foundation
import Testing

@testable import PushlineCLI

/// Every command README.md shows is run by a test, so the README cannot drift from the tool.
///
/// Each fenced shell block in the README is preceded by a marker comment saying how it is exercised:
/// - `<!-- readme-test: output -->`: `$ command` lines with the output they print; each command is run and its
///   output compared (a line `…` stands for any lines, `…` within a line for any text).
/// - `<!-- readme-test: walkthrough-server -->` then `<!-- readme-test: walkthrough -->` blocks: the server command
///   is started, the `export` lines it prints are pasted, then every walkthrough block runs in one shell, in order.
/// - `<!-- readme-test: server -->`: long-running commands; each must start, print its banner and stop on SIGINT.
/// - `<!-- readme-test: sandbox -->`: run in a scratch directory with HOME there (install lines, file writes).
/// - `<!-- readme-test: ci -->`: commands `.ci/run` runs itself; each must appear in it verbatim.
/// - `<!-- readme-test: manual: REASON -->`: not run by any test, with the reason written in the README source.
///
/// - `<!-- readme-test: parse -->`: lines that run pushline (a crontab entry, a systemd unit) are parsed as the
///   command line they hold, so every subcommand and option they name exists.
///
/// Every `pushline …` written inline (the command table's synopses, commands named in prose) is parsed with its
/// placeholders filled in, so each subcommand and option it names exists.
///
/// `swift run pushline …` and `pushline …` run the built executable; servers listen on a free port, not 8080.
@Suite(.serialized) struct ReadmeTests {
    /// The README and the pages tested the same way: the task guides, the command list, the benchmarks' and the
    /// contributors' pages.
    static let documents = [
        "README.md", "docs/getting-started.md", "docs/writing-pipelines.md", "docs/batch-runs.md", "docs/emulator.md",
        "docs/backend.md", "docs/kubernetes.md", "docs/troubleshooting.md", "docs/commands.md", "docs/tracing.md",
        "docs/testing-pipelines.md",
        "bench/README.md", "ARCHITECTURE.md",
    ]
    static let readme = text(of: "README.md")

    @Test("every shell block in the README and the guides says how a test exercises it")
    func everyBlockIsMarked() throws {
        let known = [
            "output", "walkthrough-server", "walkthrough", "serve-walkthrough", "batch-walkthrough", "server",
            "sandbox", "ci", "parse",
        ]
        let shell = Self.blocks.filter { ["sh", "console", "bash", "cron", "ini"].contains($0.language) }
        #expect(shell.count >= 8)
        for block in shell {
            let marker = try #require(
                block.marker, "\(block.file):\(block.line): a shell block without a readme-test marker")
            #expect(
                known.contains(marker) || marker.hasPrefix("manual: "),
                "\(block.file):\(block.line): unknown marker '\(marker)'")
        }
        // Blocks the marker scan cannot see (another comment in between) would go untested.
        for file in Self.documents {
            let fences = Self.blocks(of: Self.text(of: file), marker: "no-such-marker")
                .filter { ["sh", "console", "bash", "cron", "ini"].contains($0.language) }.count
            #expect(
                fences
                    == Self.blocks.filter {
                        $0.file == file && ["sh", "console", "bash", "cron", "ini"].contains($0.language)
                    }.count)
            #expect(!Self.text(of: file).isEmpty, "\(file) is missing")
        }
        #expect(Self.blocks(marked: "walkthrough-server").count == 1)
        #expect(Self.blocks(marked: "walkthrough").count >= 1)
    }

    @Test("the first screen gives exactly two commands, the demo and the tests, and CI runs both")
    func firstScreen() throws {
        let first = try #require(
            Self.blocks.first { $0.file == "README.md" && ["sh", "console"].contains($0.language) })
        #expect(first.marker == "ci")
        #expect(
            Self.commands(first).map { $0.components(separatedBy: "#")[0].trimmingCharacters(in: .whitespaces) }
                == ["swift run pushline demo", "swift test"])
    }

    @Test("commands CI runs are in .ci/run verbatim")
    func ciCommands() throws {
        let script = try String(contentsOfFile: CommandRunner.root + "/.ci/run", encoding: .utf8)
        for block in Self.blocks(marked: "ci") {
            for command in Self.commands(block) {
                let bare = command.components(separatedBy: " #")[0].trimmingCharacters(in: .whitespaces)
                #expect(
                    script.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == bare },
                    "\(block.file):\(block.line): .ci/run does not run `\(bare)`")
            }
        }
    }

    @Test("`$ command` blocks print what the README shows")
    func outputs() throws {
        let directory = try Self.sandbox()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeFiles(into: directory)
        let blocks = Self.blocks(marked: "output")
        #expect(!blocks.isEmpty)
        for block in blocks { try Self.runOutputs(of: block, in: directory, file: block.file) }
    }

    /// Runs each `$ command` line of an output block in `directory` and compares what it prints with the lines that
    /// follow it (`…` for any lines, or any text within a line); each must exit 0.
    static func runOutputs(of block: Block, in directory: String, file: String, executables: [String: String] = [:])
        throws
    {
        var lines = block.lines[...]
        while let line = lines.popFirst() {
            guard line.hasPrefix("$ ") else { continue }
            var expected: [String] = []
            while let next = lines.first, !next.hasPrefix("$ ") {
                expected.append(next)
                lines.removeFirst()
            }
            while expected.last == "" { expected.removeLast() }
            let (status, output) = try shell(String(line.dropFirst(2)), in: directory, executables: executables)
            #expect(status == 0, "\(file):\(block.line): `\(line.dropFirst(2))` exited \(status):\n\(output)")
            #expect(matches(output, expected), "\(file):\(block.line): `\(line.dropFirst(2))` printed:\n\(output)")
        }
    }

    @Test("long-running commands start, print their banner and stop on SIGINT")
    func servers() async throws {
        let directory = try Self.sandbox()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let blocks = Self.blocks(marked: "server")
        #expect(!blocks.isEmpty)
        try Self.writeFiles(into: directory)
        for command in blocks.flatMap(Self.commands) {
            let bare = command.components(separatedBy: " #")[0].trimmingCharacters(in: .whitespaces)
            let process = try PushlineProcess(Self.arguments(bare), directory: directory)
            _ = try await process.waitForOutput(containing: "stop with Ctrl-C", timeout: 60)
            #expect(try await process.stop(signal: SIGINT) == 0, "\(bare)")
        }
    }

    /// Files the documents show (`<!-- readme-test: file: NAME -->` before a block) are written where their commands
    /// expect them.
    static func writeFiles(into directory: String) throws {
        for block in blocks where block.marker?.hasPrefix("file: ") == true {
            let name = String(block.marker!.dropFirst("file: ".count))
            // A file in a folder of its own (a test folder beside a pipeline) gets the folder.
            try FileManager.default.createDirectory(
                atPath: (directory + "/" + name as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try (block.lines.joined(separator: "\n") + "\n").write(
                toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
    }

    @Test("pushline command lines in crontab entries and units parse: their subcommands and options exist")
    func parsedCommands() throws {
        let blocks = Self.blocks(marked: "parse")
        #expect(!blocks.isEmpty)
        var parsed = 0
        for block in blocks {
            for line in block.lines {
                guard let range = line.range(of: #"(^|[ /])pushline [a-z]"#, options: .regularExpression) else {
                    continue
                }
                // Shell substitutions are one word to the command; spaces inside them are not separators.
                let rest =
                    line[range].hasPrefix("pushline")
                    ? line[range.lowerBound...] : line[line.index(after: range.lowerBound)...]
                let words = rest.replacingOccurrences(of: #"\$\([^)]*\)"#, with: "X", options: .regularExpression)
                    .split(separator: " ").dropFirst().map(String.init)
                do {
                    _ = try PushlineCommand.parseAsRoot(words)
                    parsed += 1
                } catch {
                    let message = PushlineCommand.fullMessage(for: error)
                    Issue.record(
                        Comment(
                            rawValue:
                                "\(block.file):\(block.line): `pushline \(words.joined(separator: " "))` does not parse: \(message)"
                        ))
                }
            }
        }
        #expect(parsed >= 2)
    }

    /// Values for the placeholders of synopses (`pushline run PIPELINE [--report FILE]`).
    static let placeholders = [
        "PATH": "pipelines/", "PIPELINE": "pipelines/seed-tutorial.yaml", "FILE": "x.json",
        "TEMPLATE": "templates/alert.apns.json",
        "ID": "seed-1", "N": "5", "LEVEL": "warning", "EPOCH": "1700000000", "URL": "http://127.0.0.1:8080/", "CS": "x",
        "NAME": "alert", "TOKEN": "62BC", "EXPR": "12345", "HANDLE": "62BC", "JSON": "{}", "TIME": "in 2h", "P": "apns",
        "EXPRESSION": "a && b", "…": "x",
    ]

    /// A synopsis as one concrete command line: optional parts included, the first of each `a | b`, placeholders
    /// given values.
    static func concrete(_ synopsis: String) -> [String] {
        var text = synopsis.replacingOccurrences(of: "\\|", with: "|")
        // `(a | b | c)` and `x|y` alternatives: keep the first.
        while let range = text.range(of: #"\(([^()|]*)\|[^()]*\)"#, options: .regularExpression) {
            let inner = text[range].dropFirst().prefix { $0 != "|" }
            text.replaceSubrange(range, with: inner.trimmingCharacters(in: .whitespaces))
        }
        text = text.replacingOccurrences(of: #"\[([^\[\]]*?) \| [^\[\]]*\]"#, with: "$1", options: .regularExpression)
        text = text.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "")
            .replacingOccurrences(of: "\"", with: "")
        return text.split(separator: " ").dropFirst().map { word -> String in
            let first = String(word.split(separator: "|").first ?? word[...])
            let bare = first.replacingOccurrences(of: "…", with: "")
            return placeholders[bare.isEmpty ? "…" : bare] ?? first
        }
    }

    @Test(
        "every `pushline …` written inline (synopses in the command table, commands in prose) names real subcommands and options"
    )
    func inlineCommands() throws {
        let text = Self.documents.map(Self.text(of:)).joined(separator: "\n")
        let spans = text.matches(of: /`((?:swift run )?pushline [^`]+)`/).map { String($0.output.1) }
        #expect(spans.count >= 20)
        for span in Set(spans) {
            var arguments = Self.concrete(span.replacingOccurrences(of: "swift run ", with: ""))
            // `pushline run` or `pushline devices prune` in prose names the command, not a command line: its help must exist.
            if arguments.count <= 2, arguments.allSatisfy({ word in word.allSatisfy { $0.isLowercase || $0.isNumber } })
            {
                arguments.append("--help")
            }
            do {
                _ = try PushlineCommand.parseAsRoot(arguments)
            } catch {
                let message = PushlineCommand.fullMessage(for: error)
                // A value the command's own checks refuse (a combination, a file that is missing) still proves the
                // options exist; an unknown option, subcommand or argument does not.
                let unknown = [
                    "Unknown option", "Unexpected argument", "Missing expected argument", "Unknown subcommand",
                ]
                .contains { message.contains($0) }
                #expect(!unknown, "docs: `\(span)` → \(arguments): \(message)")
            }
        }
    }

    @Test("sandbox blocks run in a scratch directory and home")
    func sandboxes() throws {
        let directory = try Self.sandbox()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let blocks = Self.blocks(marked: "sandbox")
        #expect(!blocks.isEmpty)
        for block in blocks {
            let (status, output) = try Self.shell(Self.commands(block).joined(separator: "\n"), in: directory)
            #expect(status == 0, "\(block.file):\(block.line):\n\(output)")
        }
        // The completion install lines wrote a script for each shell.
        for path in [
            "home/.local/share/bash-completion/completions/pushline", "home/.zfunc/_pushline",
            "home/.config/fish/completions/pushline.fish",
        ] {
            let text = try String(contentsOfFile: directory + "/" + path, encoding: .utf8)
            #expect(text.contains("demo"), "\(path)")
        }
        // The schema written by the README's command is the committed one.
        #expect(
            try String(contentsOfFile: directory + "/pipelines/pipeline.schema.json", encoding: .utf8)
                == String(contentsOfFile: CommandRunner.root + "/pipelines/pipeline.schema.json", encoding: .utf8))
    }
}

extension ReadmeTests {
    /// GitHub's anchor for a heading.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == " " || $0 == "_"
            }
            .map(Character.init)
        ).replacingOccurrences(of: " ", with: "-")
    }

    @Test("every relative link in the README and the docs reaches a file, and its #anchor a heading there")
    func links() throws {
        let pages =
            Self.documents + [
                "docs/delivery-outcomes.md", "docs/writing-a-plugin.md", "docs/writing-a-swift-step.md",
                "docs/plugin-protocol.md", "docs/reference/steps.md", "docs/reference/outcomes.md",
                "docs/reference/commands.md", "docs/reference/exit-codes.md", "docs/reference/metrics.md",
                "docs/reference/files.md", "docs/reference/report.md", "CHANGELOG.md",
            ]
        var checked = 0
        for page in pages {
            let text = Self.text(of: page)
            #expect(!text.isEmpty, "\(page) is missing")
            let folder = URL(fileURLWithPath: CommandRunner.root + "/" + page).deletingLastPathComponent()
            // Links outside code: fenced blocks and inline code are dropped first.
            let prose = text.replacingOccurrences(of: "(?s)```.*?```", with: "", options: .regularExpression)
                .replacingOccurrences(of: "`[^`\n]*`", with: "", options: .regularExpression)
            for match in prose.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.output.1)
                guard !target.hasPrefix("http"), !target.hasPrefix("mailto:") else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(
                    String.init)
                let file =
                    parts[0].isEmpty
                    ? URL(fileURLWithPath: CommandRunner.root + "/" + page) : folder.appendingPathComponent(parts[0])
                #expect(FileManager.default.fileExists(atPath: file.path), "\(page): link to \(target): no such file")
                if parts.count == 2, file.pathExtension == "md",
                    let linked = try? String(contentsOf: file, encoding: .utf8)
                {
                    let anchors = linked.split(separator: "\n").filter { $0.hasPrefix("#") }
                        .map { Self.anchor($0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)) }
                    #expect(anchors.contains(parts[1]), "\(page): link to \(target): no such heading")
                }
                checked += 1
            }
        }
        #expect(checked >= 30)
    }
}
