import Foundation
import HubWire
import PipelineCore
import TestSupport
import Testing

@testable import RegisterStep

private func rowsFile(name: String = "users.csv", _ text: String) throws -> String {
    try directory(with: [name: text]) + "/" + name
}

private func diagnosticLines(_ diagnostics: [Diagnostic]) -> [String] {
    diagnostics.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
}

@Suite struct ForEachRegisterTests {
    @Test func eachRowMakesAnInstallationWithItsValues() async throws {
        let file = try rowsFile(
            """
            id,token,team,user
            ipad-1,\(apnsToken),RedSox,alice
            ipad-2,\(apnsToken),,
            ipad-3,\(apnsToken),Red Sox,carol

            """)
        let step = try built([
            ("hub", scalar("tutorial")), ("for-each", scalar(file)),
            (
                "installations",
                list([
                    mapping([
                        ("installationId", scalar("$(id)")), ("platform", scalar("apns")),
                        ("pushChannel", scalar("$(token)")),
                        ("tags", list([scalar("follows_$(team)"), scalar("$(team)")])), ("userId", scalar("$(user)")),
                    ])
                ])
            ),
        ])
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: context(transport))
        let sent = try transport.requests.map { try JSONDecoder().decode(Installation.self, from: Data($0.body)) }
        #expect(sent.map(\.installationId).sorted() == ["ipad-1", "ipad-2"])
        let first = try #require(sent.first { $0.installationId == "ipad-1" })
        #expect(first.tags == ["follows_RedSox", "RedSox"])
        #expect(first.userId == "alice")
        // An empty cell is a value not given: no userId, and the empty tag is dropped.
        let second = try #require(sent.first { $0.installationId == "ipad-2" })
        #expect(second.userId == nil)
        #expect(second.tags == ["follows_"])
        // A tag that is invalid once the row's value is in fails that row, naming its line.
        #expect(failure.lines.count == 1)
        #expect(failure.lines[0].hasPrefix("ipad-3: \(file):4: invalid tag: tag 'follows_Red Sox' contains a space"))
        #expect(failure.message.contains("2 ok, 0 failed, 1 bad"))
    }

    @Test func rowsMakeTemplateRegistrationsForTheirUser() async throws {
        let file = try rowsFile(
            name: "rows.jsonl",
            """
            {"user":"alice","token":"\(fcmToken)1"}
            {"user":"bob","token":"\(fcmToken)2","regId":"existing-7"}

            """)
        let step = try built([
            ("hub", scalar("tutorial")), ("for-each", scalar(file)),
            (
                "registrations",
                list([
                    mapping([
                        ("platform", scalar("fcmv1")), ("handle", scalar("$(token)")),
                        ("template", scalar("fcm-alert")),
                        ("tags", list([scalar("$UserId:{$(user)}")])), ("id", scalar("$(regId)")),
                    ])
                ])
            ),
        ])
        let result = try await step.run(in: context(ScriptedTransport()))
        #expect(result.summary.hasPrefix("registered 2 registrations"))
        #expect(result.data.outcomes == ["\(fcmToken)1": "created", "existing-7": "updated"])
        guard case .list(let ids, let total)? = result.outputs["registration-ids"] else {
            Issue.record("no registration-ids")
            return
        }
        #expect(total == 2 && ids.contains("existing-7"))
        #expect(result.outputs["installation-ids"] == .list([], total: 0))
        #expect(result.outputs["accepted"] == .integer(2) && result.outputs["failed"] == .integer(0))
        #expect(Set(result.outputs.keys) == Set(RegisterStep.outputs.map(\.name)))
    }

    @Test func aMissingColumnInAJSONRowFailsThatRowOnly() async throws {
        let file = try rowsFile(name: "rows.jsonl", "{\"id\":\"a\"}\n{\"other\":1}\n")
        let step = try built([
            ("hub", scalar("tutorial")), ("mode", scalar("delete")), ("for-each", scalar(file)),
            (
                "installations",
                list([
                    mapping([("installationId", scalar("$(id)"))])
                ])
            ),
        ])
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: context(transport))
        #expect(transport.requests.map(\.summary) == ["DELETE installation 'a'"])
        #expect(failure.lines == ["\(file):2: the row has no 'id' (its columns: other)"])
    }

    @Test func aMissingColumnNamesTheRowsColumnsAndTheNearOne() async throws {
        // A query's `user_id as "userId"` read as $(user_id): the message says what the row has, and the near name.
        let file = try rowsFile(
            name: "rows.jsonl", "{\"user_id\":\"a\"}\n{\"userId\":\"ada\",\"token\":\"t\"}\n")
        let step = try built([
            ("hub", scalar("tutorial")), ("mode", scalar("delete")), ("for-each", scalar(file)),
            ("installations", list([mapping([("installationId", scalar("$(user_id)"))])])),
        ])
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: context(transport))
        #expect(transport.requests.map(\.summary) == ["DELETE installation 'a'"])
        #expect(
            failure.lines == [
                "\(file):2: the row has no 'user_id'; did you mean 'userId'? (its columns: token, userId)"
            ])
    }

    @Test func buildChecksTheHeaderReferencesAndFixedValues() throws {
        let file = try rowsFile("id,token\n1,x\n")
        let (step, diagnostics) = build([
            ("hub", scalar("tutorial")), ("for-each", scalar(file, 2, 11)),
            (
                "installations",
                list([
                    mapping([
                        ("installationId", scalar("$(idd)", 3, 20)), ("platform", scalar("ios", 3, 40)),
                        ("pushChannel", scalar("$(token", 3, 60)),
                        ("tags", list([scalar("bad tag", 3, 80), scalar("$(id)", 3, 90)])),
                    ])
                ])
            ),
        ])
        #expect(step == nil)
        let lines = diagnosticLines(diagnostics)
        #expect(lines.contains { $0.hasPrefix("3:60 'pushChannel' has a malformed reference") })
        #expect(lines.contains("3:40 platform 'ios' is not supported; use apns, fcmv1, gcm or wns"))
        #expect(lines.contains("3:80 invalid tag: tag 'bad tag' contains a space, which is not allowed"))
        #expect(
            lines.contains(
                "2:11 the step reads column 'idd', which the header of '\(file)' does not have; did you mean 'id'?"))
    }

    @Test func valuesFromColumnsAreNotJudgedByTheirSample() throws {
        let file = try rowsFile("id,token,platform\n1,x,apns\n")
        let (step, diagnostics) = build([
            ("hub", scalar("tutorial")), ("for-each", scalar(file)),
            (
                "installations",
                list([
                    mapping([
                        ("installationId", scalar("$(id)")), ("platform", scalar("$(platform)")),
                        ("pushChannel", scalar("$(token)")),
                    ])
                ])
            ),
        ])
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(step != nil)
    }

    @Test func forEachNeedsAListOfEntries() throws {
        let file = try rowsFile("id\n1\n")
        let (step, diagnostics) = build([
            ("hub", scalar("tutorial")), ("for-each", scalar(file)),
            ("installations", scalar("devices.csv", 4, 20)),
        ])
        #expect(step == nil)
        #expect(
            diagnosticLines(diagnostics) == [
                "4:20 with 'for-each', 'installations' must be a list of entries whose values use $(column)"
            ])
    }

    @Test func aMalformedRowIsOneFailureAndTheRestGoOn() async throws {
        let file = try rowsFile("id\n\"a\nb\"c,d\ne\n")
        let step = try built([
            ("hub", scalar("tutorial")), ("mode", scalar("delete")), ("for-each", scalar(file)),
            (
                "installations",
                list([
                    mapping([("installationId", scalar("$(id)"))])
                ])
            ),
        ])
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: context(transport))
        #expect(transport.requests.map(\.summary) == ["DELETE installation 'e'"])
        // The quote opened on line 2 would swallow line 3: both are malformed, reported at their own lines.
        #expect(failure.lines.count == 2)
        #expect(failure.lines[0].hasPrefix("\(file):2: a quoted field opens on this line and is not closed properly"))
        #expect(failure.lines[0].contains("it would swallow line 3"))
        #expect(failure.lines[1].hasPrefix("\(file):3: "))
    }

    @Test func anInstallationIdThatAppearsTwiceFailsTheSecondRow() async throws {
        let file = try rowsFile("id\na\nb\na\n")
        let step = try built([
            ("hub", scalar("tutorial")), ("mode", scalar("delete")), ("for-each", scalar(file)),
            (
                "installations",
                list([
                    mapping([("installationId", scalar("$(id)"))])
                ])
            ),
        ])
        let transport = ScriptedTransport()
        let failure = try await failure(of: step, in: context(transport))
        #expect(transport.requests.map(\.summary).sorted() == ["DELETE installation 'a'", "DELETE installation 'b'"])
        #expect(failure.lines == ["a: \(file):4: installation 'a' already appears at \(file):2; give each device once"])
    }
}
