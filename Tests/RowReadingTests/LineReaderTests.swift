import Foundation
import PipelineCore
import Testing

@testable import RowReading

/// `LineReader` over `ChunkedFile`: the streaming line source under device and handle files.
@Suite struct LineReaderTests {
    /// Writes `bytes` to a fresh temporary file and reads every line back.
    func lines(_ bytes: [UInt8], maxBytes: Int = 1024) throws -> [LineReader.Line] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = LineReader(file: try ChunkedFile(path: path), maxBytes: maxBytes)
        var result: [LineReader.Line] = []
        while let line = try reader.next() { result.append(line) }
        return result
    }

    @Test func dropsTheByteOrderMarkReadsCRLFAndKeepsALastLineWithoutNewline() throws {
        #expect(
            try lines(Array("\u{FEFF}one\r\ntwo\n\nthree".utf8)) == [
                .text("one", number: 1), .text("two", number: 2), .text("", number: 3), .text("three", number: 4),
            ])
        #expect(try lines([]) == [])
    }

    @Test func overLongAndInvalidLinesAreReportedWithTheirNumberAndSkipped() throws {
        let long = [UInt8](repeating: 0x61, count: 3 * ChunkedFile.chunkSize)
        let bytes = Array("ok\n".utf8) + long + Array("\n".utf8) + [0xC3, 0x28, 0x0A] + Array("after\n".utf8)
        #expect(
            try lines(bytes, maxBytes: 100) == [
                .text("ok", number: 1), .tooLong(number: 2), .invalidUTF8(number: 3), .text("after", number: 4),
            ])
    }

    @Test func linesSpanningChunkBoundariesArriveWhole() throws {
        let line = String(repeating: "x", count: 1000)
        let text = (0..<200).map { "\($0):\(line)" }.joined(separator: "\n")  // ≈ 200 KB, several chunks
        let read = try lines(Array(text.utf8), maxBytes: 2000)
        #expect(read.count == 200)
        #expect(read[137] == .text("137:\(line)", number: 138))
    }

    @Test func aDirectoryIsRefused() {
        #expect(throws: TextFile.Failure.self) {
            _ = try ChunkedFile(path: FileManager.default.temporaryDirectory.path)
        }
    }
}
