import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import PushService

/// The access log: a line for each request served; refusals summed per route, status and address each interval.
@Suite struct AccessLogTests {
    final class Lines: Sendable {
        let stored = Mutex<[String]>([])
        let now = Mutex(1_700_000_000.0)
        var all: [String] { stored.withLock { $0 } }
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    }

    func log(_ lines: Lines, json: Bool = true) -> AccessLog {
        AccessLog(json: json, interval: 10, clock: { lines.now.withLock { $0 } }) { line in
            lines.stored.withLock { $0.append(line) }
        }
    }

    @Test func aFloodOfRefusalsIsAFewLinesAnIntervalWhileEveryServedRequestKeepsItsLine() throws {
        let lines = Lines()
        let log = log(lines)
        let runs = "GET /v1/runs/{id}"
        for index in 0..<5_000 {
            log.record(
                method: "GET", route: runs, status: index.isMultiple(of: 5) ? 429 : 401, caller: nil,
                address: "203.0.113.\(index % 2)", elapsed: .milliseconds(1))
        }
        log.record(
            method: "GET", route: "GET /healthz", status: 200, caller: nil,
            address: "198.51.100.1", elapsed: .milliseconds(1))
        #expect(lines.all.count == 1, "served requests are written at once; refusals wait for their interval")
        lines.advance(10)
        log.record(
            method: "GET", route: "GET /healthz", status: 200, caller: nil,
            address: "198.51.100.1", elapsed: .milliseconds(1))
        let summaries = lines.all.dropFirst().filter { $0.contains(#""refused""#) }
        // 401 and 429 from each of the two addresses: four keys.
        #expect(summaries.count == 4, "\(lines.all)")
        let counts = try summaries.map { line -> Int in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["route"] as? String == runs)
            #expect((object["address"] as? String)?.hasPrefix("203.0.113.") == true)
            #expect(object["seconds"] as? Double == 10)
            return object["refused"] as? Int ?? 0
        }
        #expect(counts.reduce(0, +) == 5_000)
        #expect(lines.all.count == 6)
        #expect(lines.all.last?.contains(#""status":200"#) == true)
    }

    @Test func theBusiestKeysHaveLinesOfTheirOwnAndTheRestOneBetweenThemAndShutdownWritesTheLast() {
        let lines = Lines()
        let log = log(lines, json: false)
        let route = "POST /api/register"
        for address in 0..<30 {
            for _ in 0...address {
                log.record(
                    method: "POST", route: route, status: 401, caller: nil,
                    address: "10.0.0.\(address)", elapsed: .zero)
            }
        }
        lines.advance(3)
        log.flush()
        let all = lines.all
        #expect(all.count == 21, "\(all)")
        #expect(all.first == "refused ×30 401 POST /api/register from 10.0.0.29 in 3.0 s")
        // Addresses 0 to 9 sent 1 to 10 each: 55 in one line.
        #expect(all.last == "refused ×55 more, of 10 other routes, statuses and addresses, in 3.0 s")
        log.flush()
        #expect(lines.all.count == 21, "nothing is written twice")
    }
}
