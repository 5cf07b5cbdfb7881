import Foundation
import PipelineCore
import Testing

@testable import RowReading

private func elements(of text: String) throws -> [JSONArraySplitter.Element] {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("array-\(UUID().uuidString).json").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let splitter = JSONArraySplitter(file: try ChunkedFile(path: path), maxBytes: 1 << 20, elements: "rows")
    var result: [JSONArraySplitter.Element] = []
    while let element = try splitter.next() { result.append(element) }
    return result
}

/// The streaming readers under device files and `for-each` rows: JSON arrays and RFC 4180 CSV.
@Suite struct StreamingReaderTests {
    @Test func splitterIgnoresBracketsCommasAndQuotesInsideStrings() throws {
        let first = #"{"installationId":"a],b,\"{[","tags":["x","y"]}"#
        let second = #"{"installationId":"c\\","n":{"m":[1,[2]]}}"#
        #expect(
            try elements(of: "\u{FEFF}[\(first),\n  \(second)\n]\n") == [
                .bytes(Array(first.utf8), line: 1),
                .bytes(Array("\(second)\n".utf8), line: 2),
            ])
    }

    @Test func splitterReportsBrokenArrays() throws {
        #expect(try elements(of: "[]") == [])
        #expect(try elements(of: "  ") == [.problem("the file is empty; it must hold a JSON array of rows", line: 1)])
        #expect(
            try elements(of: "{}") == [.problem("the file must hold a JSON array of rows, starting with '['", line: 1)])
        #expect(
            try elements(of: "[{\"a\":1},\n") == [
                .bytes(Array("{\"a\":1}".utf8), line: 1),
                .problem("the JSON array is not closed (missing ']')", line: 2),
            ])
        #expect(
            try elements(of: "[{\"a\":\n\"x]") == [
                .problem("the file ends inside this element (missing '}' or ']')", line: 1)
            ])
        #expect(
            try elements(of: "[1,,2]") == [
                .bytes(Array("1".utf8), line: 1), .problem("two ',' in a row (an element is missing)", line: 1),
            ])
        #expect(
            try elements(of: "[1] x") == [
                .bytes(Array("1".utf8), line: 1), .problem("there is text after the closing ']'", line: 1),
            ])
    }

    @Test func csvLineFollowsRFC4180() {
        #expect(CSVLine.parse(#"a, "b,c" ,"say ""hi""",,"x|y""#) == .fields(["a", "b,c", #"say "hi""#, "", "x|y"]))
        #expect(CSVLine.parse("a,\"open") == .needsMore)
        #expect(CSVLine.parse("a,\"line one\nline two\"") == .fields(["a", "line one\nline two"]))
        #expect(CSVLine.parse("a,") == .fields(["a", ""]))
        #expect(
            CSVLine.parse("a,b\"c")
                == .problem("field 2 has a '\"' inside; quote the whole field and double the quote (\"\")"))
        #expect(CSVLine.parse("\"a\"x") == .problem("field 1 has text after its closing quote"))
    }
}
