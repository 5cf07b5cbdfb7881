import Foundation
import PipelineCore
import Testing

@testable import RowReading

private func records(_ text: String, expected: Int? = 2) throws -> [CSVRecordReader.Record] {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString).csv").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = CSVRecordReader(
        lines: LineReader(file: try ChunkedFile(path: path), maxBytes: 1 << 20), maxBytes: 1 << 20)
    reader.expectedFields = expected
    var result: [CSVRecordReader.Record] = []
    while let record = try reader.next() { result.append(record) }
    return result
}

/// A quote that never closes properly must not swallow the rows after it: it is one bad row, named at
/// the line where it opened with the lines it would have taken, and those lines are read as rows.
@Suite struct CSVRecoveryTests {
    @Test func anUnterminatedQuoteIsOneBadRowAndTheLinesAfterItAreRowsAgain() throws {
        let rows =
            ["u0200,\"unterminated quote"] + (201...209).map { "u0\($0),Headline \($0)" } + [
                "u0210,\"Quoted, headline\""
            ]
        let found = try records(rows.joined(separator: "\n") + "\n")
        guard case .problem(let message, let line) = found.first else {
            Issue.record("expected a problem first")
            return
        }
        #expect(line == 1)
        #expect(message.contains("it would swallow lines 2–11"))
        #expect(message.contains("close the quote"))
        #expect(found.count == 11, "the opening row, then every row it would have swallowed")
        #expect(found[1] == .fields(["u0201", "Headline 201"], line: 2, through: 2))
        #expect(found[10] == .fields(["u0210", "Quoted, headline"], line: 11, through: 11))
    }

    @Test func aQuoteThatNeverClosesNamesTheLinesToTheEnd() throws {
        let found = try records("a,\"open\nb,2\nc,3\n")
        #expect(found.count == 3)
        guard case .problem(let message, 1) = found[0] else {
            Issue.record("expected a problem at line 1")
            return
        }
        #expect(message.contains("no closing quote before the end of the file"))
        #expect(message.contains("lines 2–3"))
        #expect(found[1] == .fields(["b", "2"], line: 2, through: 2))
        #expect(found[2] == .fields(["c", "3"], line: 3, through: 3))
    }

    @Test func aWholeMultiLineRecordKeepsItsLineSpan() throws {
        let found = try records("a,\"line one\nline two\"\nb,2\n")
        #expect(
            found == [
                .fields(["a", "line one\nline two"], line: 1, through: 2), .fields(["b", "2"], line: 3, through: 3),
            ])
    }

    @Test func aMultiLineRecordWithTheWrongFieldCountIsNotOne() throws {
        // Read to the quote on line 3 the record has 3 fields, not 2: the quote on line 1 is a stray one.
        let found = try records("a,\"x\nb,2\nc,\",z\n")
        guard case .problem(let message, 1) = found.first else {
            Issue.record("expected a problem at line 1")
            return
        }
        #expect(message.contains("the header has 2"))
        #expect(found.count == 3)
        #expect(found[1] == .fields(["b", "2"], line: 2, through: 2))
    }

    @Test func rowOriginsShowASpan() {
        #expect(RowReader.origin("rows.csv", line: 4, through: 4) == "rows.csv:4")
        #expect(RowReader.origin("rows.csv", line: 4, through: 6) == "rows.csv:4-6")
    }

    @Test func anInputCheckCountsEveryRecordAndKeepsTheFirstProblems() {
        var check = InputCheck(input: "rows.csv", policy: .stop)
        for row in 1...30 { check.malformed("rows.csv:\(row): bad") }
        check.good()
        check.good(multiLine: true)
        #expect(check.records == 32)
        #expect(check.bad == 30)
        #expect(check.problems.count == InputCheck.listed)
        #expect(check.lines.last == "… and 10 more malformed records")
        #expect(check.stopsRun)
        #expect(check.summary == "32 records in 'rows.csv', 30 malformed, 1 spanning several lines")
        check.policy = .skip
        #expect(!check.stopsRun)
    }
}

@Suite struct RowOriginTests {
    @Test func anOriginSaysWhetherItsRecordSpansLines() {
        #expect(RowReader.spansLines(RowReader.origin("data/rows-2026-11-23.csv", line: 4, through: 6)))
        #expect(RowReader.spansLines("rows.csv:4-6 (device 2)"))
        #expect(!RowReader.spansLines(RowReader.origin("data/rows-2026-11-23.csv", line: 4, through: 4)))
        #expect(!RowReader.spansLines("rows.csv:4 (device 2)"))
    }
}
