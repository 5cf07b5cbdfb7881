import CommandTestSupport
import Foundation
import Testing

/// Reading a Markdown file's fenced blocks with their markers, and running their commands as a reader would: shared
/// by the README's tests and the guides'.
extension ReadmeTests {
    /// A fenced block and the marker before it.
    typealias Block = MarkdownBlock

    /// Every `readme-test` block of every document.
    static let blocks: [Block] = documents.flatMap { file in
        blocks(of: text(of: file), marker: "readme-test").map { block in
            var block = block
            block.file = file
            return block
        }
    }

    /// A document's text.
    static func text(of file: String) -> String { MarkdownBlocks.text(of: file) }

    /// The fenced blocks of a Markdown `text`, each with the `<!-- MARKER: … -->` comment before it.
    static func blocks(of text: String, marker name: String) -> [Block] {
        MarkdownBlocks.blocks(of: text, marker: name)
    }

    static func blocks(marked marker: String) -> [Block] { blocks.filter { $0.marker == marker } }

    /// Shell command lines of a block: continuations joined, heredoc bodies kept with their command, comments and
    /// blank lines dropped.
    static func commands(_ block: Block) -> [String] {
        var commands: [String] = []
        var lines = block.lines[...]
        while var line = lines.popFirst() {
            while line.hasSuffix("\\"), let next = lines.popFirst() { line = String(line.dropLast()) + "\n" + next }
            if let range = line.range(of: #"<<'?([A-Z]+)'?"#, options: .regularExpression) {
                let word = line[range].trimmingCharacters(in: CharacterSet(charactersIn: "<'"))
                while let next = lines.popFirst() {
                    line += "\n" + next
                    if next == word { break }
                }
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            commands.append(trimmed)
        }
        return commands
    }

    /// A scratch directory with copies of the files README commands read, and a HOME of its own.
    static func sandbox() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-readme-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: true)
        for folder in ["pipelines", "templates", "plugins"] {
            try FileManager.default.copyItem(
                atPath: CommandRunner.root + "/" + folder, toPath: directory + "/" + folder)
        }
        return directory
    }

    /// Runs `script` in bash where `swift run pushline` and `pushline` are the built executable, and `swift run NAME`
    /// and `NAME` each of `executables` (a name and its path).
    static func shell(_ script: String, in directory: String, executables: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        // `pushline` is a real command on PATH (a link to the built executable), not a shell function, so a
        // walkthrough's `pushline serve … &` is the server's own pid and `kill` stops it; background jobs left
        // by a failing script are stopped on exit, so the test never waits on their open output.
        let bin = directory + "/bin"
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let commands = executables.merging(["pushline": PushlineProcess.executable.path]) { given, _ in given }
        for (name, path) in commands {
            try? FileManager.default.createSymbolicLink(atPath: bin + "/" + name, withDestinationPath: path)
        }
        let prelude = """
            set -euo pipefail
            export PATH="\(bin):$PATH"
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
            swift() {
              if [ "$1" = run ] && [ -n "${2:-}" ] && [ -x "\(bin)/$2" ]; then local name="$2"; shift 2; "\(bin)/$name" "$@"
              else echo "readme test: unexpected command: swift $*" >&2; return 97; fi
            }

            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", prelude + script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        // The developer's own hub settings must not leak into what the README's commands see.
        let inherited = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("NH_") && $0.key != "PUSHLINE_JOURNAL"
        }
        process.environment = inherited.merging([
            "PUSHLINE_BIN": PushlineProcess.executable.path, "HOME": directory + "/home",
            "PUSHLINE_JOURNAL": directory + "/journal.sqlite",
        ]) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The README's `pushline …` arguments as an executable would receive them (for server commands), listening
    /// on a free port (0) instead of the one written (or the default 8080), which may be taken.
    static func arguments(_ command: String) -> [String] {
        let port = 0
        var words = command.split(separator: " ").map(String.init)
        if words.starts(with: ["swift", "run", "pushline"]) {
            words.removeFirst(3)
        } else if words.first == "pushline" {
            words.removeFirst()
        }
        if let index = words.firstIndex(of: "--port"), index + 1 < words.count {
            words[index + 1] = "\(port)"
        } else {
            words += ["--port", "\(port)"]
        }
        return words
    }

    /// `expected` with `…` matching any lines (alone on a line) or any text (within a line).
    static func matches(_ output: String, _ expected: [String]) -> Bool {
        let pattern = expected.map { line -> String in
            line == "…"
                ? "(?:[^\\n]*\\n)*?"
                : line.components(separatedBy: "…").map(NSRegularExpression.escapedPattern(for:)).joined(
                    separator: "[^\\n]*") + "\\n"
        }.joined()
        return output.range(of: "^" + pattern + "$", options: .regularExpression) != nil
    }
}
