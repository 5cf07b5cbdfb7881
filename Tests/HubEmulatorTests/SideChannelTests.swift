import Foundation
import HTTPTypes
import HubEmulator
import Testing

/// The side channel: `/_emulator/health` and `/_emulator/deliveries`.
@Suite("Side channel")
struct SideChannelTests {
    static let keys: Set<String> = [
        "id", "notificationId", "hub", "platform", "pushChannel", "installationId", "registrationId",
        "template", "payload", "headers", "time",
    ]

    @Test("GET /_emulator/health → 200 without auth")
    func health() async throws {
        try await withEmulator { client, _ async throws in
            let response = try await client.request(.get, "/_emulator/health")
            #expect(response.status == 200, "\(response)")
        }
    }

    @Test("deliveries: JSON array of objects with every field, nulls written out")
    func deliveryShape() async throws {
        try await withEmulator { client, _ async throws in
            let empty = try await client.request(.get, "/_emulator/deliveries")
            #expect(empty.status == 200)
            #expect(normalizedContentType(empty.header("Content-Type")).hasPrefix("application/json"))
            #expect((empty.json as? [Any])?.isEmpty == true, "\(empty.body)")

            #expect(try await client.putInstallation("sc-1", seedInstallation(id: "sc-1")).status == 200)
            #expect(try await client.sendTemplate(#"{"message":"one"}"#, tags: "12345").status == 201)
            let response = try await client.request(.get, "/_emulator/deliveries")
            let array = try #require(response.json as? [[String: Any]])
            #expect(array.count == 1)
            let delivery = try #require(array.first)
            #expect(Set(delivery.keys) == Self.keys)
            #expect(delivery["id"] is Int)
            #expect(delivery["notificationId"] is String)
            #expect(delivery["payload"] is String)
            #expect(delivery["headers"] is [String: Any])
            #expect(delivery["registrationId"] is NSNull)
            let time = try #require(delivery["time"] as? String)
            #expect(time.matches(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$"#), "\(time)")
            // Raw text keeps the null (not an omitted key).
            #expect(response.body.contains(#""registrationId":null"#), "\(response.body)")
        }
    }

    @Test("?since=ID returns only later deliveries; DELETE clears")
    func sinceAndClear() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.putInstallation("sc-1", seedInstallation(id: "sc-1")).status == 200)
            for index in 1...3 {
                #expect(try await client.sendTemplate(#"{"message":"m\#(index)"}"#, tags: "12345").status == 201)
            }
            let all = try await client.deliveries()
            let ids = all.compactMap { $0["id"] as? Int }
            // Deliveries are numbered on their own, from 1 with no gaps, whatever ids the sends and the
            // installation took.
            #expect(ids == [1, 2, 3])
            let later = try await client.deliveries(since: ids[0])
            #expect(later.compactMap { $0["id"] as? Int } == Array(ids.dropFirst()))
            #expect(
                later.compactMap { $0["payload"] as? String } == [
                    #"{"aps":{"alert":"m2"}}"#, #"{"aps":{"alert":"m3"}}"#,
                ])
            #expect(try await client.deliveries(since: ids[2]).isEmpty)

            let bad = try await client.request(.get, "/_emulator/deliveries?since=abc")
            #expect(bad.status == 400, "\(bad)")

            let clear = try await client.request(.delete, "/_emulator/deliveries")
            #expect(clear.status == 200 || clear.status == 204, "\(clear)")
            #expect(try await client.deliveries().isEmpty)

            // Ids keep increasing after a clear, so ?since stays meaningful.
            #expect(try await client.sendTemplate(#"{"message":"m4"}"#, tags: "12345").status == 201)
            let after = try await client.deliveries(since: ids[2])
            #expect(after.count == 1)
            #expect((after.first?["id"] as? Int ?? 0) > ids[2])
        }
    }

    @Test("the delivery log keeps the newest `deliveryLimit` entries")
    func deliveryLimit() async throws {
        try await withEmulator(deliveryLimit: 3) { client, emulator async throws in
            #expect(try await client.putInstallation("sc-1", seedInstallation(id: "sc-1")).status == 200)
            for index in 1...5 {
                #expect(try await client.sendTemplate(#"{"message":"m\#(index)"}"#, tags: "12345").status == 201)
            }
            let payloads = try await client.deliveries().compactMap { $0["payload"] as? String }
            #expect(payloads == (3...5).map { #"{"aps":{"alert":"m\#($0)"}}"# })
            #expect(await emulator.deliveries().count == 3)
        }
    }

    @Test("unknown side-channel paths → 404")
    func unknownPath() async throws {
        try await withEmulator { client, _ async throws in
            #expect(try await client.request(.get, "/_emulator/nothing").status == 404)
        }
    }
}
