import Foundation
import HubWire
import Testing

@Suite("Delivery outcomes: the table, per-platform counts, polling")
struct PnsOutcomeTests {
    /// Every row of the outcome table, read as the docs say: dead channels are exactly these, and WNS's WrongToken is a
    /// credentials problem there.
    @Test(arguments: [
        ("Success", PushPlatform.apns, PnsOutcome.Kind.delivered),
        ("ExpiredChannel", .apns, .deadChannel), ("ExpiredChannel", .wns, .deadChannel),
        ("ExpiredChannel", .gcm, .deadChannel),
        ("BadChannel", .fcmv1, .deadChannel), ("BadChannel", .mpns, .deadChannel), ("badchannel", .apns, .deadChannel),
        ("WrongToken", .apns, .deadChannel), ("WrongToken", .fcmv1, .deadChannel), ("WrongToken", .wns, .configuration),
        ("WrongChannel", .fcmv1, .configuration), ("InvalidCredentials", .apns, .configuration),
        ("InvalidToken", .wns, .configuration),
        ("InvalidNotificationFormat", .fcmv1, .payload), ("InvalidNotificationSize", .apns, .payload),
        ("Throttled", .fcmv1, .transient), ("ChannelThrottled", .wns, .transient), ("PnsThrottled", .apns, .transient),
        ("ChannelDisconnected", .mpns, .transient), ("Dropped", .wns, .transient),
        ("PnsUnreachable", .apns, .transient),
        ("PnsUnavailable", .apns, .transient), ("PnsUnavailable", .gcm, .configuration),
        ("PnsServerError", .apns, .transient), ("PnsInterfaceError", .apns, .transient),
        ("AbandonedNotificationMessages", .apns, .transient), ("NoTargets", .apns, .notSent),
        ("Skipped", .apns, .notSent),
        ("UnknownError", .apns, .unknown), ("SomethingNew", .apns, .unknown),
    ])
    func everyRow(_ name: String, _ platform: PushPlatform, _ kind: PnsOutcome.Kind) {
        #expect(PnsOutcome.kind(of: name, on: platform) == kind)
    }

    @Test("every table row is covered by the test above")
    func tableIsCovered() {
        let covered: Set<String> = [
            "Success", "ExpiredChannel", "BadChannel", "WrongToken", "WrongChannel", "InvalidCredentials",
            "InvalidToken",
            "InvalidNotificationFormat", "InvalidNotificationSize", "Throttled", "ChannelThrottled", "PnsThrottled",
            "ChannelDisconnected", "Dropped", "PnsUnreachable", "PnsUnavailable", "PnsServerError", "PnsInterfaceError",
            "AbandonedNotificationMessages", "NoTargets", "Skipped", "UnknownError",
        ]
        #expect(Set(PnsOutcome.all.map(\.name)) == covered)
    }

    @Test(
        "details: counts per platform by element prefix (Fcm is legacy FCM), totals by kind, states by either spelling")
    func details() throws {
        let xml = """
            <NotificationDetails xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect"><NotificationId>n</NotificationId>\
            <State>Canceled</State><WnsOutcomeCounts><Outcome><Name>Success</Name><Count>3</Count></Outcome>\
            <Outcome><Name>WrongToken</Name><Count>1</Count></Outcome></WnsOutcomeCounts>\
            <FcmOutcomeCounts><Outcome><Name>NotRegistered?</Name><Count>2</Count></Outcome></FcmOutcomeCounts>\
            <ApnsOutcomeCounts><Outcome><Name>ExpiredChannel</Name><Count>4</Count></Outcome></ApnsOutcomeCounts></NotificationDetails>
            """
        let details = try NotificationDetails(parsing: xml)
        #expect(details.state == .cancelled && details.state.isFinal)
        #expect(details.platformOutcomes.map(\.platform) == [.apns, .gcm, .wns])
        #expect(details.totals == [.delivered: 3, .configuration: 1, .deadChannel: 4, .unknown: 2])
        #expect(
            NotificationDetails.State(name: "Scheduled") == .scheduled && !NotificationDetails.State.scheduled.isFinal)
        #expect(!NotificationDetails.State.processing.isFinal && NotificationDetails.State.noTargetFound.isFinal)
    }

    @Test("the PNS error link is shown without its SAS signature")
    func redaction() {
        var details = NotificationDetails(notificationId: "n", state: .completed)
        details.pnsErrorDetailsUri = "https://x.blob.core.windows.net/c/n?sv=2020-08&SIG=abc%2Bdef&se=1"
        #expect(
            details.redactedPnsErrorDetailsUri == "https://x.blob.core.windows.net/c/n?sv=2020-08&sig=<redacted>&se=1")
    }

    @Test("polling waits 1, 2, 4 … up to 30 s and never past the deadline")
    func polling() {
        var poll = TelemetryPoll()
        let start = Date(timeIntervalSince1970: 0)
        let deadline = start.addingTimeInterval(70)
        var now = start
        var delays: [Double] = []
        while let delay = poll.nextDelay(now: now, deadline: deadline) {
            delays.append(delay)
            now = now.addingTimeInterval(delay)
        }
        #expect(delays == [1, 2, 4, 8, 16, 30, 9])
        #expect(now == deadline)
    }
}
