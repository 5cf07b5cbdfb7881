import HubWire
import Testing

@Suite("NotificationDetails")
struct NotificationDetailsTests {
    static let head =
        #"<NotificationDetails xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/"#
        + #"connect" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">"#

    static var full: NotificationDetails {
        var details = NotificationDetails(notificationId: "7362-20181107001834-1", state: .completed)
        details.location = "https://ns/hub/messages/7362-20181107001834-1?api-version=2020-06"
        details.enqueueTime = "2018-11-07T00:18:34Z"
        details.startTime = "2018-11-07T00:18:35Z"
        details.endTime = "2018-11-07T00:18:36Z"
        details.notificationBody = #"{"aps":{"alert":"a < b & c"}}"#
        details.tags = "sports && !cold"
        details.targetPlatforms = "apple,fcmv1"
        details.pnsErrorDetailsUri = "https://blob/x?sig=1&se=2"
        details.outcomeCounts = [
            "FcmV1": [.init(name: "Success", count: 3)],
            "Apns": [.init(name: "Success", count: 2), .init(name: "InvalidToken", count: 1)],
            "Custom": [],
            "Wns": [],
        ]
        return details
    }

    @Test("writes children in §5.6 order")
    func xml() throws {
        #expect(
            Self.full.xml() == Self.head + "<NotificationId>7362-20181107001834-1</NotificationId>"
                + "<Location>https://ns/hub/messages/7362-20181107001834-1?api-version=2020-06</Location>"
                + "<State>Completed</State><EnqueueTime>2018-11-07T00:18:34Z</EnqueueTime>"
                + "<StartTime>2018-11-07T00:18:35Z</StartTime><EndTime>2018-11-07T00:18:36Z</EndTime>"
                + #"<NotificationBody>{"aps":{"alert":"a &lt; b &amp; c"}}</NotificationBody>"#
                + "<Tags>sports &amp;&amp; !cold</Tags><TargetPlatforms>apple,fcmv1</TargetPlatforms>"
                + "<ApnsOutcomeCounts><Outcome><Name>Success</Name><Count>2</Count></Outcome><Outcome><Name>InvalidToken"
                + "</Name><Count>1</Count></Outcome></ApnsOutcomeCounts><WnsOutcomeCounts/>"
                + "<PnsErrorDetailsUri>https://blob/x?sig=1&amp;se=2</PnsErrorDetailsUri>"
                + "<FcmV1OutcomeCounts><Outcome><Name>Success</Name><Count>3</Count></Outcome></FcmV1OutcomeCounts>"
                + "<CustomOutcomeCounts/></NotificationDetails>")
        #expect(try NotificationDetails(parsing: Self.full.xml()) == Self.full)
    }

    @Test("only id and state when nothing else is known")
    func minimal() throws {
        let details = NotificationDetails(notificationId: "n1", state: .enqueued)
        #expect(
            details.xml() == Self.head + "<NotificationId>n1</NotificationId><State>Enqueued</State>"
                + "</NotificationDetails>")
        #expect(try NotificationDetails(parsing: details.xml()) == details)
    }

    @Test("every state round-trips", arguments: NotificationDetails.State.allCases)
    func states(_ state: NotificationDetails.State) throws {
        let details = NotificationDetails(notificationId: "n", state: state)
        #expect(try NotificationDetails(parsing: details.xml()) == details)
    }

    @Test("unknown states, nil elements and other prefixes are tolerated")
    func lenient() throws {
        let xml = """
            <d:NotificationDetails xmlns:d="\(RegistrationSamples.connect)" xmlns:i="\(RegistrationSamples.instance)">
              <d:NotificationId> n2 </d:NotificationId>
              <d:State>DetailedStateAvailable</d:State>
              <d:EndTime i:nil="true"/>
              <d:XiaomiOutcomeCounts>
                <d:Outcome><d:Name>Throttled</d:Name><d:Count> 4 </d:Count></d:Outcome>
              </d:XiaomiOutcomeCounts>
            </d:NotificationDetails>
            """
        var expected = NotificationDetails(notificationId: "n2", state: .unknown)
        expected.outcomeCounts = ["Xiaomi": [.init(name: "Throttled", count: 4)]]
        #expect(try NotificationDetails(parsing: xml) == expected)
    }

    @Test(
        "errors",
        arguments: [
            ("<NotificationOutcome/>", "Expected <NotificationDetails>, found <NotificationOutcome>."),
            (
                "<NotificationDetails><State>Completed</State></NotificationDetails>",
                "<NotificationDetails> has no NotificationId."
            ),
            (
                "<NotificationDetails><NotificationId>n</NotificationId><ApnsOutcomeCounts><Outcome><Name>x</Name>"
                    + "<Count>1.5</Count></Outcome></ApnsOutcomeCounts></NotificationDetails>",
                "<Count> in <Outcome> is not a whole number: '1.5'."
            ),
        ])
    func failure(_ xml: String, _ message: String) {
        #expect(throws: RegistrationXMLError(message: message)) { try NotificationDetails(parsing: xml) }
    }
}
