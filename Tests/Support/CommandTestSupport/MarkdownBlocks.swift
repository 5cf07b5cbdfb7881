import Foundation

/// A fenced block of a Markdown document and the marker comment before it (`<!-- readme-test: … -->`).
package struct MarkdownBlock: Sendable {
    package let marker: String?
    package let language: String
    package let lines: [String]
    package let line: Int
    /// The document, relative to the repository (`README.md`, `docs/batch-runs.md`).
    package var file = ""

    package init(marker: String?, language: String, lines: [String], line: Int, file: String = "") {
        self.marker = marker
        self.language = language
        self.lines = lines
        self.line = line
        self.file = file
    }
}

/// Reading a Markdown document's fenced blocks with their markers: the README's and the guides' tests run them, and
/// end-to-end suites take a guide's pipeline from them, so the guide shows what is tested.
package enum MarkdownBlocks {
    /// A document's text (relative to the repository), or empty when there is none.
    package static func text(of file: String) -> String {
        (try? String(contentsOfFile: CommandRunner.root + "/" + file, encoding: .utf8)) ?? ""
    }

    /// The blocks of `file` whose `<!-- MARKER: … -->` comment says `value`.
    package static func blocks(in file: String, marker name: String = "readme-test", marked value: String)
        -> [MarkdownBlock]
    {
        blocks(of: text(of: file), marker: name).filter { $0.marker == value }
    }

    /// The fenced blocks of a Markdown `text`, each with the `<!-- MARKER: … -->` comment before it.
    package static func blocks(of text: String, marker name: String) -> [MarkdownBlock] {
        var blocks: [MarkdownBlock] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var number = 0
        var marker: String?
        while let line = lines.popFirst() {
            number += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<!-- \(name):"), trimmed.hasSuffix("-->") {
                marker = String(trimmed.dropFirst("<!-- \(name):".count).dropLast(3)).trimmingCharacters(
                    in: .whitespaces)
                continue
            }
            guard trimmed.hasPrefix("```") else {
                if !trimmed.isEmpty { marker = nil }
                continue
            }
            let start = number
            var body: [String] = []
            while let inner = lines.popFirst() {
                number += 1
                if inner.trimmingCharacters(in: .whitespaces) == "```" { break }
                body.append(inner)
            }
            blocks.append(
                MarkdownBlock(marker: marker, language: String(trimmed.dropFirst(3)), lines: body, line: start))
            marker = nil
        }
        return blocks
    }
}
