import Foundation
import HubWire
import PipelineCore
import Testing
@testable import RegisterStep

private func elements(of text: String) throws -> [JSONArraySplitter.Element] {
    let dir = try directory(with: ["a.json": text])
    let splitter = JSONArraySplitter(file: try ChunkedFile(path: dir + "/a.json"), maxBytes: 1 << 20)
    var result: [JSONArraySplitter.Element] = []
    while let element = try splitter.next() { result.append(element) }
    return result
}

@Suite struct StreamingReaderTests {
    @Test func splitterIgnoresBracketsCommasAndQuotesInsideStrings() throws {
        let first = #"{"installationId":"a],b,\"{[","tags":["x","y"]}"#
        let second = #"{"installationId":"c\\","n":{"m":[1,[2]]}}"#
        #expect(try elements(of: "\u{FEFF}[\(first),\n  \(second)\n]\n") == [
            .bytes(Array(first.utf8), line: 1),
            .bytes(Array("\(second)\n".utf8), line: 2),
        ])
        #expect(DeviceRecord.decode(json: Array(second.utf8))
            == .failure(DeviceRecord.Problem(message: "unknown key 'n' (known keys: installationId, platform, pushChannel, tags, userId)")))
        #expect(try DeviceRecord.decode(json: Array(first.utf8)).get() == DeviceRecord(installationId: #"a],b,"{["#, tags: ["x", "y"]))
    }

    @Test func splitterReportsBrokenArrays() throws {
        #expect(try elements(of: "[]") == [])
        #expect(try elements(of: "  ") == [.problem("the file is empty; it must hold a JSON array of devices", line: 1)])
        #expect(try elements(of: "[{\"a\":1},\n") == [.bytes(Array("{\"a\":1}".utf8), line: 1), .problem("the JSON array is not closed (missing ']')", line: 2)])
        #expect(try elements(of: "[{\"a\":\n\"x]") == [.problem("the file ends inside this element (missing '}' or ']')", line: 1)])
        #expect(try elements(of: "[1,,2]") == [.bytes(Array("1".utf8), line: 1), .problem("two ',' in a row (an element is missing)", line: 1)])
        #expect(try elements(of: "[1] x") == [.bytes(Array("1".utf8), line: 1), .problem("there is text after the closing ']'", line: 1)])
    }

    @Test func csvLineFollowsRFC4180() {
        #expect(CSVLine.parse(#"a, "b,c" ,"say ""hi""",,"x|y""#) == .fields(["a", "b,c", #"say "hi""#, "", "x|y"]))
        #expect(CSVLine.parse("a,\"open") == .needsMore)
        #expect(CSVLine.parse("a,\"line one\nline two\"") == .fields(["a", "line one\nline two"]))
        #expect(CSVLine.parse("a,") == .fields(["a", ""]))
    }

    @Test func aLargeJSONArrayStreamsAcrossChunkBoundaries() async throws {
        // ~200 KB: elements straddle the 64 KB read chunks.
        let items = (1...2000).map { n in
            #"{"installationId":"device-\#(n)","platform":"gcm","pushChannel":"token-\#(n)-\#(String(repeating: "z", count: 40))","tags":["t\#(n % 7)"]}"#
        }
        let dir = try directory(with: ["many.json": "[\n" + items.joined(separator: ",\n") + "\n]\n"])
        let step = try built([("hub", scalar("tutorial")), ("installations", scalar("many.json")), ("concurrency", scalar("64"))],
                             directory: dir)
        let transport = ScriptedTransport()
        let result = try await step.run(in: context(transport, directory: dir))
        #expect(result.summary == "registered 2000 installations on hub 'tutorial' (2000 ok, 0 failed)")
        #expect(Set(transport.requests.map(\.summary)).count == 2000)
        #expect(transport.maxInFlight <= 64)
    }
}
