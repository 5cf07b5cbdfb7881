import Foundation
import Testing

/// The guides in docs/ are followed as written: each block marked `<!-- guide-test: file NAME -->` is saved as NAME
/// in a scratch folder, and each `<!-- guide-test: output -->` block's `$ command` lines run there and print what
/// the guide shows (`…` stands for any lines, or any text within a line).
@Suite struct GuideTests {
    @Test("the guide is followed as written", arguments: ["docs/writing-a-plugin.md"])
    func guideRunsAsWritten(guide: String) throws {
        let text = try String(contentsOfFile: CommandRunner.root + "/" + guide, encoding: .utf8)
        let directory = try ReadmeTests.sandbox()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let blocks = ReadmeTests.blocks(of: text, marker: "guide-test")
        #expect(blocks.contains { $0.marker == "output" })
        for block in blocks {
            guard let marker = block.marker else { continue }
            if marker.hasPrefix("file ") {
                let name = String(marker.dropFirst("file ".count))
                try (block.lines.joined(separator: "\n") + "\n").write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
                continue
            }
            #expect(marker == "output", "\(guide):\(block.line): unknown marker '\(marker)'")
            try ReadmeTests.runOutputs(of: block, in: directory, file: guide)
        }
    }
}
