import CommandTestSupport
import Foundation
import Testing

/// The guides in docs/ are followed as written: each block marked `<!-- guide-test: file NAME -->` is saved as NAME
/// in a scratch folder, and each `<!-- guide-test: output -->` block's `$ command` lines run there and print what
/// the guide shows (`…` stands for any lines, or any text within a line).
@Suite struct GuideTests {
    /// The guides this suite follows; the others are ReadmeTests' `documents`.
    static let guides = ["docs/writing-a-plugin.md", "docs/writing-a-plugin-in-node.md", "docs/delivery-outcomes.md"]

    @Test("every page in docs/ is tested by one suite or the other, or is the protocol's specification")
    func everyPageIsTested() throws {
        let pages = try FileManager.default.contentsOfDirectory(atPath: CommandRunner.root + "/docs").filter {
            $0.hasSuffix(".md")
        }.map { "docs/" + $0 }
        // The protocol page has no commands to run: `plugin check` and the guide's plugin test what it specifies.
        let tested = Set(ReadmeTests.documents + Self.guides + [Self.swiftGuide, "docs/plugin-protocol.md"])
        #expect(pages.count >= 10)
        for page in pages {
            #expect(tested.contains(page), "\(page) is tested by no suite: add it to ReadmeTests.documents")
        }
    }

    @Test("the guide is followed as written", arguments: GuideTests.guides)
    func guideRunsAsWritten(guide: String) throws {
        let text = try String(contentsOfFile: CommandRunner.root + "/" + guide, encoding: .utf8)
        let directory = try ReadmeTests.sandbox()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let blocks = ReadmeTests.blocks(of: text, marker: "guide-test")
        #expect(blocks.contains { $0.marker == "output" })
        for block in blocks {
            guard let marker = block.marker, !marker.hasPrefix("manual: ") else { continue }
            if marker.hasPrefix("file ") {
                let name = String(marker.dropFirst("file ".count))
                try (block.lines.joined(separator: "\n") + "\n").write(
                    toFile: directory + "/" + name, atomically: true, encoding: .utf8)
                continue
            }
            #expect(marker == "output", "\(guide):\(block.line): unknown marker '\(marker)'")
            try ReadmeTests.runOutputs(of: block, in: directory, file: guide)
        }
    }

    static let swiftGuide = "docs/writing-a-swift-step.md"
    /// The example package's own pushline, once `swift build --package-path Examples` has built it (CI builds it in
    /// another folder and names it in `PUSHLINE_EXAMPLE_PUSHLINE`).
    static let examplePushline =
        ProcessInfo.processInfo.environment["PUSHLINE_EXAMPLE_PUSHLINE"]
        ?? CommandRunner.root + "/Examples/.build/debug/my-pushline"
    /// CI sets this once the example package is built, so the guide's commands cannot be skipped there.
    static let examplesRequired = ProcessInfo.processInfo.environment["PUSHLINE_REQUIRE_EXAMPLES"] == "1"
    /// CI builds the example package beside the tests and sets this for the tests' main run: the guide's commands run
    /// after that build, on their own.
    static let examplesLater = ProcessInfo.processInfo.environment["PUSHLINE_EXAMPLES_LATER"] == "1"

    @Test("the Swift guide shows the example package's code as it is (CI builds and tests that package)")
    func swiftGuideShowsTheExample() throws {
        let text = try String(contentsOfFile: CommandRunner.root + "/" + Self.swiftGuide, encoding: .utf8)
        let sources = ReadmeTests.blocks(of: text, marker: "guide-test").filter {
            $0.marker?.hasPrefix("source ") == true
        }
        #expect(sources.count >= 3)
        for block in sources {
            let path = String(block.marker!.dropFirst("source ".count))
            let file = try String(contentsOfFile: CommandRunner.root + "/" + path, encoding: .utf8)
            #expect(
                file.contains(block.lines.joined(separator: "\n")),
                "\(Self.swiftGuide):\(block.line): not as written in \(path)")
        }
    }

    @Test(
        "the Swift guide's commands print what it shows, with the example package's pushline",
        .enabled(
            if: (FileManager.default.isExecutableFile(atPath: GuideTests.examplePushline)
                || GuideTests.examplesRequired) && !GuideTests.examplesLater,
            "needs `swift build --package-path Examples` (CI runs it after building that package)"))
    func swiftGuideRunsAsWritten() throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: Self.examplePushline),
            "build it: swift build --package-path Examples")
        let text = try String(contentsOfFile: CommandRunner.root + "/" + Self.swiftGuide, encoding: .utf8)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-guide-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(
            atPath: CommandRunner.root + "/Examples/pipelines", toPath: directory + "/pipelines")
        let blocks = ReadmeTests.blocks(of: text, marker: "guide-test")
        #expect(blocks.contains { $0.marker == "output" })
        for block in blocks {
            guard let marker = block.marker, !marker.hasPrefix("source "), !marker.hasPrefix("manual: ") else {
                continue
            }
            if marker.hasPrefix("file ") {
                let name = String(marker.dropFirst("file ".count))
                try (block.lines.joined(separator: "\n") + "\n").write(
                    toFile: directory + "/" + name, atomically: true, encoding: .utf8)
                continue
            }
            #expect(marker == "output", "\(Self.swiftGuide):\(block.line): unknown marker '\(marker)'")
            try ReadmeTests.runOutputs(
                of: block, in: directory, file: Self.swiftGuide, executables: ["my-pushline": Self.examplePushline])
        }
    }
}
