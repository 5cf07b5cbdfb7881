import Foundation
import HubWire
import PipelineCore
import RunStore
import TestSupport
import Testing

@testable import SendStep

private func rows(_ text: String, _ ext: String = "csv") throws -> String {
    try temporaryFile(text, prefix: "rows", ext: ext)
}

@Suite struct ForEachTests {
    @Test func aForEachSendAsksForItsConcurrencyAndOtherSendsForOne() throws {
        let path = try rows("userId\nalice\n")
        let each = try #require(
            build([("hub", "sports"), ("for-each", path), ("audience", "$UserId:{$(userId)}"), ("concurrency", "40")]).0
        )
        let defaulted = try #require(
            build([("hub", "sports"), ("for-each", path), ("audience", "$UserId:{$(userId)}")]).0)
        let audience = try #require(build([("hub", "sports"), ("audience", "fans")]).0)
        #expect(each.concurrency == 40)
        #expect(defaulted.concurrency == BatchSettings().concurrency)
        #expect(audience.concurrency == 1)
    }

    @Test func oneTemplateSendPerRowWithTheRowsValues() async throws {
        let path = try rows("userId,headline\nalice,Rain later\nbob,\"Sun, all day\"\n")
        let step = try #require(
            build([
                ("hub", "sports"), ("for-each", path), ("audience", "$UserId:{$(userId)}"),
                ("properties", [("message", "$(headline)")]),
            ]).0)
        let transport = ScriptedTransport()
        let result = try await run(step, transport: transport)
        #expect(
            transport.requests.map { $0.header("ServiceBusNotification-Tags") } == ["$UserId:{alice}", "$UserId:{bob}"])
        #expect(
            transport.requests.map { String(decoding: $0.body, as: UTF8.self) } == [
                #"{"message":"Rain later"}"#, #"{"message":"Sun, all day"}"#,
            ])
        #expect(result.items == ItemCounts(accepted: 2))
        #expect(
            result.outputs == [
                "accepted": .integer(2), "failed": .integer(0), "unknown": .integer(0), "already-sent": .integer(0),
                "bad": .integer(0), "skipped": .integer(0), "total": .integer(2),
                "notification-ids": .list(["n1", "n2"], total: 2), "tracking-ids": .list(["t-1", "t-2"], total: 2),
            ])
        // Every output send declares, and only those (an `outcomes` step hands on what reading telemetry found).
        #expect(Set(result.outputs.keys) == Set(SendStep.outputs.map(\.name)))
    }

    @Test func listOutputsKeepTheFirstIdsAndCountThemAll() async throws {
        let path = try rows("userId\n" + (1...150).map { "u\($0)" }.joined(separator: "\n") + "\n")
        let step = try #require(
            build([
                ("hub", "sports"), ("for-each", path), ("audience", "$UserId:{$(userId)}"),
                ("properties", [("message", "hi")]),
            ]).0)
        let result = try await run(step, transport: ScriptedTransport())
        guard case .list(let ids, let total)? = result.outputs["notification-ids"] else {
            Issue.record("no notification-ids")
            return
        }
        #expect(ids.count == 100 && total == 150 && ids.first == "n1")
        #expect(result.outputs["accepted"] == .integer(150))
        let dry = try await run(step, transport: ScriptedTransport(), dryRun: true)
        // A dry run sends nothing, so it has no ids; its would-be sends count as accepted, so a `when:` reading them
        // decides as the live run would.
        #expect(dry.outputs["notification-ids"] == .list([], total: 0), "a dry run sends nothing")
        #expect(dry.outputs["accepted"] == .integer(150) && dry.outputs["skipped"] == .integer(0))
        #expect(dry.outputs["total"] == .integer(150))
    }

    @Test func malformedRowsAndBadTagsFailWithTheirLineAndTheRestAreSent() async throws {
        let path = try rows("userId,headline\nalice,Hi\nx\"y,Hi\nbo b,Hi\ncarol,Hi\n")
        let step = try #require(
            build([
                ("hub", "sports"), ("for-each", path), ("audience", "$UserId:{$(userId)}"),
                ("properties", [("message", "$(headline)")]),
            ]).0)
        let transport = ScriptedTransport()
        let result = try await run(step, transport: transport)
        #expect(transport.requests.count == 2)
        #expect(result.items == ItemCounts(accepted: 2, bad: 2))
        let text = result.lines.joined(separator: "\n")
        #expect(text.contains("field 1 has a '\"' inside"))
        #expect(text.contains("audience '$UserId:{bo b}' is not a valid tag expression"))
        #expect(text.contains("e.g. \(path):3") && text.contains("e.g. \(path):4"))
    }

    @Test func shardsSendDisjointRowsThatTogetherAreEveryRowAndShardKeyKeepsAUsersRowsTogether() async throws {
        let lines = (1...200).map { "u\($0 % 50),Edition \($0)" }
        let path = try rows("userId,headline\n" + lines.joined(separator: "\n") + "\n")
        var sentByShard: [[String]] = []
        for keyed in [false, true] {
            let options: [(String, Any)] =
                [
                    ("hub", "sports"), ("for-each", path), ("audience", "$UserId:{$(userId)}"),
                    ("properties", [("message", "$(headline)")]),
                ] + (keyed ? [("shard-key", "userId")] : [])
            let step = try #require(build(options).0)
            var seen: [String] = []
            for index in 0..<3 {
                let transport = ScriptedTransport()
                let result = try await run(
                    step, transport: transport, batch: BatchControl(shard: Shard(index: index, count: 3)))
                let sent = transport.requests.map { String(decoding: $0.body, as: UTF8.self) }
                let items = try #require(result.items)
                #expect(items.accepted == sent.count && items.accepted + items.otherShards == 200, "\(items)")
                #expect(sent.count > 30, "a part holds a fair share of 200 rows")
                seen += sent
                if keyed {
                    // Every row of a user lands in the same part.
                    let users = Set(transport.requests.compactMap { $0.header("ServiceBusNotification-Tags") })
                    sentByShard.append(users.sorted())
                }
            }
            #expect(seen.count == 200 && Set(seen).count == 200, "the parts are disjoint and cover every row")
        }
        #expect(Set(sentByShard.flatMap { $0 }).count == sentByShard.map(\.count).reduce(0, +), "no user in two parts")
        #expect(
            build([
                ("hub", "sports"), ("for-each", path), ("audience", "$UserId:{$(userId)}"),
                ("properties", [("message", "$(headline)")]),
                ("shard-key", "user"),
            ]).1 == ["the step reads column 'user', which the header of '\(path)' does not have"])
        #expect(
            build([("hub", "sports"), ("broadcast", "true"), ("shard-key", "userId")]).1
                == ["'shard-key' applies only with 'for-each': for-each sends make one request per row"])
    }

    @Test func theHeaderMustNameEveryColumnTheStepReads() throws {
        let path = try rows("userId,headlne\nalice,Hi\n")
        #expect(
            build([
                ("hub", "sports"), ("for-each", path), ("audience", "$UserId:{$(userId)}"),
                ("properties", [("message", "$(headline)")]),
            ]).1
                == [
                    "the step reads column 'headline', which the header of '\(path)' does not have; did you mean 'headlne'?"
                ])
    }

    @Test func forEachOptionsAreChecked() throws {
        let path = try rows("h\nx\n")
        #expect(
            build([("hub", "sports"), ("for-each", "rows.txt"), ("broadcast", "true")]).1
                == ["for-each file 'rows.txt' must end in .csv, .jsonl or .json"])
        #expect(
            build([("hub", "sports"), ("for-each", path), ("audience", "a && $(h"), ("properties", [("m", "x")])]).1
                == ["'audience' has a malformed reference: missing ')' to close '$(' (character 9)"])
        #expect(
            build([("hub", "sports"), ("for-each", path), ("audience", "$(h) &&"), ("properties", [("m", "x")])]).1
                .first?
                .hasPrefix("'audience' is not a valid tag expression even with sample values (sample &&)") == true)
        #expect(
            build([("hub", "sports"), ("for-each", path), ("broadcast", "true"), ("test", "true")]).1
                == ["give either 'test' or 'for-each', not both"])
        #expect(
            build([("hub", "sports"), ("for-each", path), ("broadcast", "true"), ("rate", "fast")]).1
                == ["'rate' must be a number from 0.001 to 100000 (e.g. 200), found 'fast'"])
        #expect(
            build([("hub", "sports"), ("broadcast", "true"), ("concurrency", "4")]).1
                == ["'concurrency' applies only with 'for-each': for-each sends make one request per row"])
        let step = try #require(
            build([("hub", "sports"), ("for-each", path), ("broadcast", "true"), ("concurrency", "4"), ("rate", "50")])
                .0)
        guard case .sendEach(let plan) = step.action else {
            Issue.record("expected a for-each send")
            return
        }
        #expect(plan.concurrency == 4 && plan.rate == 50)
    }

    @Test func nativeDirectSendsPerRowCheckEachHandle() async throws {
        let token = String(repeating: "AB", count: 32)
        let path = try rows("{\"token\":\"\(token)\",\"name\":\"Ann\"}\n{\"token\":\"zz\",\"name\":\"Bo\"}\n", "jsonl")
        let step = try #require(
            build([
                ("hub", "sports"), ("format", "apple"), ("template", "alert"), ("for-each", path),
                ("direct", "$(token)"), ("properties", [("message", "Hi $(name)")]),
            ]).0)
        let transport = ScriptedTransport()
        let result = try await run(step, transport: transport)
        #expect(transport.requests.map { $0.header("ServiceBusNotification-DeviceHandle") } == [token])
        #expect(String(decoding: transport.requests[0].body, as: UTF8.self) == #"{"aps":{"alert":"Hi Ann"}}"#)
        #expect(result.items == ItemCounts(accepted: 1, bad: 1))
    }

    @Test func aDryRunShowsTheFirstRequestsAndCountsTheRest() async throws {
        let path = try rows("userId\n" + (1...10).map { "u\($0)" }.joined(separator: "\n") + "\n")
        let step = try #require(
            build([
                ("hub", "sports"), ("for-each", path), ("audience", "$UserId:{$(userId)}"),
                ("properties", [("m", "x")]),
            ]).0)
        let result = try await run(step, transport: ScriptedTransport(), dryRun: true)
        #expect(
            result.summary.hasPrefix(
                "would send template notifications, one per row of '\(path)', on hub 'sports' (10 requests, nothing sent)"
            ))
        #expect(result.lines.filter { $0.hasPrefix("POST ") }.count == 3)
        #expect(result.lines.contains("… and 7 more requests like these (--dry-run --trace prints every one)"))
    }
}
