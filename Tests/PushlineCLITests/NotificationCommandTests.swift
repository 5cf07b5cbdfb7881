import CommandTestSupport
import Foundation
import HubWire
import Testing

@testable import PushlineCLI

@Suite struct NotificationCommandTests {
    @Test func theOutcomeReferenceIsCurrent() throws {
        let path = CommandRunner.root + "/docs/reference/outcomes.md"
        let committed = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            committed == NotificationCommand.Outcomes.markdown() + "\n",
            "docs/reference/outcomes.md is stale: run `swift run pushline notification outcomes --markdown > docs/reference/outcomes.md`"
        )
        for outcome in PnsOutcome.all {
            #expect(committed.contains("| `\(outcome.name)` | `\(outcome.kind.rawValue)` |"))
        }
    }

    @Test func textPutsDeliveriesFirstAndNamesEachKind() throws {
        var details = NotificationDetails(notificationId: "n-1", state: .completed)
        details.outcomeCounts = [
            "Apns": [
                .init(name: "BadChannel", count: 1), .init(name: "Success", count: 5),
                .init(name: "ExpiredChannel", count: 2),
            ],
            "Wns": [.init(name: "WrongToken", count: 3)], "Mystery": [.init(name: "Odd", count: 1)],
        ]
        details.pnsErrorDetailsUri = "https://blob.example/c/n-1?sv=2020&sig=SECRETSIG%2Bx&se=2026"
        let text = NotificationView(details: details, hub: "myhub").text()
        #expect(
            text.contains("APNs     5 Success, 2 ExpiredChannel (dead-channel), 1 BadChannel (dead-channel)"), "\(text)"
        )
        // WNS's WrongToken is a credentials problem, not a dead device.
        #expect(text.contains("WNS      3 WrongToken (configuration)"), "\(text)")
        #expect(text.contains("Mystery  1 Odd (unknown)"), "\(text)")
        #expect(text.contains("in all: 5 delivered, 7 not (3 to dead channels)"), "\(text)")
        #expect(!text.contains("SECRETSIG"))
        #expect(text.contains("sig=<redacted>&se=2026"))
        let json = NotificationView(details: details, hub: "myhub").json()
        #expect(!json.contains("SECRETSIG"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(
            (object["totals"] as? [String: Int]) == [
                "delivered": 5, "dead-channel": 3, "configuration": 3, "unknown": 1,
            ])
        #expect(((object["platforms"] as? [String: Any])?["apns"] as? [String: Int])?["ExpiredChannel"] == 2)
    }
}
