import Foundation
import HubWire
import PipelineCore
import TestSupport
import Testing

@testable import RegisterStep

@Suite struct StreamingReaderTests {
    @Test func jsonElementsDecodeAsDevices() throws {
        let first = #"{"installationId":"a],b,\"{[","tags":["x","y"]}"#
        let second = #"{"installationId":"c\\","n":{"m":[1,[2]]}}"#
        #expect(
            DeviceRecord.decode(json: Array(second.utf8))
                == .failure(
                    DeviceRecord.Problem(
                        message:
                            "unknown key 'n' (known keys: installationId, platform, pushChannel, tags, userId, templates, pushVariables)"
                    )))
        #expect(
            try DeviceRecord.decode(json: Array(first.utf8)).get()
                == DeviceRecord(installationId: #"a],b,"{["#, tags: ["x", "y"]))
    }

    @Test func aLargeJSONArrayStreamsAcrossChunkBoundaries() async throws {
        // ~200 KB: elements straddle the 64 KB read chunks.
        let items = (1...2000).map { n in
            #"{"installationId":"device-\#(n)","platform":"gcm","pushChannel":"token-\#(n)-\#(String(repeating: "z", count: 40))","tags":["t\#(n % 7)"]}"#
        }
        let dir = try directory(with: ["many.json": "[\n" + items.joined(separator: ",\n") + "\n]\n"])
        let step = try built(
            [("hub", scalar("tutorial")), ("installations", scalar("many.json")), ("concurrency", scalar("64"))],
            directory: dir)
        let transport = ScriptedTransport()
        let result = try await step.run(in: context(transport, directory: dir))
        #expect(result.summary == "registered 2000 installations on hub 'tutorial' (2000 ok, 0 failed)")
        #expect(Set(transport.requests.map(\.summary)).count == 2000)
        #expect(transport.maxInFlight <= 64)
    }
}
