import Foundation
import PipelineCore
import Testing

/// The byte-level text helpers the loaders use instead of Foundation's searches: they must agree with what
/// the slower forms found, on every kind of line end and on non-ASCII text.
@Suite struct TextScanningTests {
    /// The scalar-by-scalar split `lines` replaced, kept here as the reference it must match.
    private func referenceLines(_ text: String) -> [String] {
        var result: [String] = []
        var start = text.startIndex
        let scalars = text.unicodeScalars
        for index in scalars.indices where scalars[index] == "\n" {
            var end = index
            if end > start, scalars[scalars.index(before: end)] == "\r" { end = scalars.index(before: end) }
            result.append(String(text[start..<end]))
            start = scalars.index(after: index)
        }
        result.append(String(text[start...]))
        return result
    }

    static let samples = [
        "", "\n", "\r\n", "a", "a\n", "a\r\nb", "a\rb\nc", "\r\r\n", "\n\n\r\n\n",
        "version: 1\r\nhubs:\r\n  main: {}\r\n", "é\nü\r\n日本語\n\u{1F600}x\r", "tail without newline\r",
        "e\u{301}\n\u{301}\r\n",
    ]

    @Test(arguments: samples)
    func linesSplitOnLFAndDropACRBeforeIt(_ text: String) {
        #expect(text.lines.map(String.init) == referenceLines(text))
    }

    @Test func linesOfASubstringBackedString() {
        let text = String("xx\r\nyy\nzz".dropFirst())
        #expect(text.lines == ["x", "yy", "zz"])
    }

    @Test func containsBytesFindsNewlinesInsideCRLF() {
        // The standard library's Character search treats "\r\n" as one Character and would miss this.
        #expect("a\r\nb".contains(bytes: "\n"))
        #expect("a\r\nb".contains(bytes: "\r\n"))
        #expect(!"a\nb\r".contains(bytes: "\r\n"))
        #expect("ends with ${".contains(bytes: "${"))
        #expect(!"ends with $".contains(bytes: "${"))
        #expect("$$${param:x}".contains(bytes: "${param:"))
        #expect(!"${para".contains(bytes: "${param:"))
        #expect("anything".contains(bytes: ""))
    }

    @Test func firstByteRangeIsTheFirstMatchAfterNonASCIIText() throws {
        let text = Substring("日本 $x ${env:A} ${env:B}")
        let range = try #require(text.firstByteRange(of: "${"))
        #expect(text[range] == "${")
        #expect(text[range.upperBound...].hasPrefix("env:A}"))
        #expect(text[..<range.lowerBound] == "日本 $x ")
        let rest = text[range.upperBound...]
        let second = try #require(rest.firstByteRange(of: "${"))
        #expect(rest[second.upperBound...] == "env:B}")
        #expect(Substring("no reference").firstByteRange(of: "${") == nil)
    }
}

/// `TextFile.open` tells missing, directory and special files apart without opening the special ones.
@Suite struct TextFileOpenTests {
    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "TextFileOpenTests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func classifiesWhatIsAtThePath() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: TextFile.Failure.missing) { try TextFile.open(directory + "/nothing.yaml") }
        #expect(throws: TextFile.Failure.missing) { try TextFile.open(directory + "/nothing/below.yaml") }
        #expect(throws: TextFile.Failure.directory) { try TextFile.open(directory) }
        #expect(throws: TextFile.Failure.notRegular) { try TextFile.open("/dev/null") }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Refused from its type alone: opening a FIFO for reading would wait for a writer.
        #expect(throws: TextFile.Failure.notRegular) { try TextFile.open(fifo) }

        let file = directory + "/p.yaml"
        try Data("version: 1\r\n".utf8).write(to: URL(fileURLWithPath: file))
        let (handle, size) = try TextFile.open(file)
        #expect(size == 12)
        #expect(try handle.readToEnd() == Data("version: 1\r\n".utf8))
        try handle.close()
        #expect(try TextFile.read(file, limit: 100) == "version: 1\n")
        #expect(throws: TextFile.Failure.tooLarge(12, 5)) { try TextFile.read(file, limit: 5) }
    }
}
