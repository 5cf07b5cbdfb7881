import Foundation
import HubExpressions
import HubWire
import PipelineCore
import Testing

@testable import RowReading

private func source(_ text: String, _ ext: String) throws -> RowSource {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(UUID().uuidString).\(ext)").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return RowSource(path: path, shown: "rows.\(ext)", format: RowSource.format(of: path)!)
}

/// Every item as `number@line: col=value …` or `number@line ! problem`.
private func read(_ source: RowSource) throws -> [String] {
    let reader = try source.open()
    var out: [String] = []
    while let item = try reader.next() {
        switch item {
        case .row(let number, let line, let values, _, _):
            out.append(
                "\(number)@\(line): "
                    + values.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        case .problem(let number, let line, let message):
            out.append("\(number)@\(line) ! \(message)")
        }
    }
    return out
}

@Suite struct RowReaderTests {
    @Test func csvRowsFollowTheHeaderAndBadRowsAreReportedAndSkipped() throws {
        let csv = try source(
            "userId,headline\nalice,\"Rain, then sun\"\nbob\ncarol,\"two\nlines\"\n\ndave,\"x\"y\n", "csv")
        #expect(try csv.header() == ["userId", "headline"])
        #expect(
            try read(csv) == [
                "1@2: headline=Rain, then sun userId=alice",
                "2@3 ! the row has 1 fields; the header has 2",
                "3@4: headline=two\nlines userId=carol",
                "4@7 ! field 2 has text after its closing quote",
            ])
    }

    @Test func badHeadersAndEmptyFilesStopBeforeAnyRow() throws {
        #expect(throws: RowSourceError("rows.csv:1: the header names column 'UserId' twice")) {
            try source("userId,UserId\n", "csv").open()
        }
        #expect(throws: RowSourceError("rows.csv:1: column 2 of the header has no name")) {
            try source("a,\n", "csv").open()
        }
        #expect(
            throws: RowSourceError(
                "for-each file 'rows.csv' is empty; a CSV file starts with a header row naming the columns")
        ) {
            try source("", "csv").open()
        }
        #expect(throws: RowSourceError("for-each file 'missing.csv' does not exist")) {
            try RowSource(path: "/no/such/rows.csv", shown: "missing.csv", format: .csv).open()
        }
    }

    @Test func jsonLinesTakeTextNumbersBooleansAndNull() throws {
        let jsonl = try source(
            "{\"userId\":\"alice\",\"n\":3,\"vip\":true,\"note\":null}\n\n[1]\n{\"tags\":[\"a\"]}\nnot json\n{\"x\":1.5}\n",
            "jsonl")
        #expect(
            try read(jsonl) == [
                "1@1: n=3 note= userId=alice vip=true",
                "2@3 ! the row is not a JSON object",
                "3@4 ! 'tags' holds a list or an object; for-each values are text, numbers or booleans",
                "4@5 ! the row is not valid JSON",
                "5@6: x=1.5",
            ])
    }

    @Test func aJSONArrayStreamsItsObjects() throws {
        let json = try source("[\n {\"userId\": \"a\"},\n {\"userId\": \"b\"}\n]\n", "json")
        #expect(try json.header() == nil)
        #expect(try read(json) == ["1@2: userId=a", "2@3: userId=b"])
    }

    @Test func digestsDependOnContentAndFieldBoundaries() {
        #expect(RowDigest.of(["ab", "c"]) != RowDigest.of(["a", "bc"]))
        #expect(RowDigest.of(["alice", "hi"]) == RowDigest.of(["alice", "hi"]))
        #expect(RowDigest.of([]).count == 16)
    }
}
